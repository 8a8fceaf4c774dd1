import type { CreateProjectInput, ProjectCategory } from '../../src/common';
import { PROJECT_CATEGORIES } from '../../src/common';
import type { Random } from './random';
import { rgbPng } from '../../test/support/png';

/** Realistic-looking people, projects and comments for seeding and benchmarks. */

/** A list written as one '|'-separated string (keeps the word lists compact). */
function words(list: string): string[] {
  return list.split('|');
}

const FIRST_NAMES = words(
  'Mario|Luigi|Peach|Daisy|Yoshi|Aiko|Kenji|Sofia|Mateo|Amara|Noah|Leila|Tomás|Ingrid|Ravi|Priya|Chen|Mei|Oluwaseun|Zanele|Jonas|Elif|Hana|Diego|Lucía|Kofi|Anya|Sven|Fatima|Omar|Grace|Hugo|Nina|Paolo|Sara|Yusuf|Marta|Ivan|Chloé|Kai',
);
const LAST_NAMES = words(
  'Rossi|Tanaka|García|Okafor|Nguyen|Kowalski|Smith|Müller|Haddad|Sato|Silva|Novak|Ibrahim|Larsen|Costa|Kim|Patel|Dubois|Moreau|Ahmed|Fischer|Lindqvist|Mensah|Petrova|Romano|Yamamoto|Ortiz|Brown|Khan|Weber',
);

const PROJECT_WORDS: Record<ProjectCategory, { verbs: string[]; objects: string[] }> = {
  development: {
    verbs: words('Build|Refactor|Migrate|Ship|Harden|Speed up|Automate|Fix|Upgrade|Test'),
    objects: words(
      'the checkout API|the mobile login flow|search indexing|the billing service|CI pipeline|the notifications worker|offline mode|the admin dashboard|data export|password reset|the image resizer|SSO with Okta|rate limiting|the public REST API|audit logging',
    ),
  },
  design: {
    verbs: words('Redesign|Prototype|Polish|Sketch|Refresh|Audit|Illustrate|Simplify'),
    objects: words(
      'the onboarding flow|app icons|the pricing page|the design system|empty states|dark mode|the settings screen|the marketing site header|email templates|error pages|the project card|accessibility contrast|the brand guidelines',
    ),
  },
  sales: {
    verbs: words('Close|Prepare|Follow up on|Negotiate|Qualify|Renew|Pitch|Forecast'),
    objects: words(
      'the Acme Corp deal|Q3 enterprise leads|the partner programme|renewals for EMEA|the reseller contract|the Globex pilot|the trade-show leads|the annual plan upsell|the Initech proposal|the APAC pipeline|the sales deck',
    ),
  },
  marketing: {
    verbs: words('Launch|Plan|Write|Run|Measure|Promote|Schedule|Localise'),
    objects: words(
      'the spring campaign|the product newsletter|the launch blog post|the webinar series|social media for v2|the customer case study|the SEO landing pages|the referral programme|the conference booth|the podcast sponsorship|the holiday promotion|the release video',
    ),
  },
};

const DETAIL_OPENERS = words(
  'We need to|Goal:|This quarter we want to|Customers keep asking us to|Leadership asked us to|Follow-up from the retro:|Part of the roadmap:',
);
const DETAIL_BODIES = words(
  'agree on scope with everyone involved, then split the work into small, reviewable pieces.|collect feedback from at least five customers before the first draft goes out.|keep the budget under control and report progress in the Monday stand-up.|document every decision in the project page so newcomers can catch up quickly.|coordinate with support so they know what changes and when.|measure the result against last quarter and share the numbers with the team.|make sure legal signs off before anything is published.',
);
const COMMENTS = words(
  'Looks good to me!|I can take this one.|Any update on this?|Pushed a first draft, please review.|Blocked on the API keys, asked IT this morning.|Moved the deadline by a week, see details.|Great work everyone 🎉|Can we sync tomorrow at 10?|Added the numbers from last quarter.|Customer confirmed the requirements.|I think we should split this into two projects.|Done on my side.|Waiting for design sign-off.|Shared the link in the channel.',
);

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** After this many people the (first, last) pairs of `displayNameFor` repeat: lcm(40, 30). */
const NAME_PERIOD = (FIRST_NAMES.length * LAST_NAMES.length) / gcd(FIRST_NAMES.length, LAST_NAMES.length);

/** Distinct, varied names: first and last names cycle at different strides; numbered after a full period. */
export function displayNameFor(index: number): string {
  const first = FIRST_NAMES[index % FIRST_NAMES.length] ?? 'User';
  // 7 is coprime with the 30 last names, so pairs are unique for a whole period.
  const last = LAST_NAMES[(index * 7) % LAST_NAMES.length] ?? 'Dojo';
  const round = Math.floor(index / NAME_PERIOD);
  return round === 0 ? `${first} ${last}` : `${first} ${last} ${round + 1}`;
}

const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A project a person might create: category-specific name, a short brief, a due date, 1–4 assignees. */
export function projectInput(
  random: Random,
  userIds: readonly string[],
  today = new Date(),
): CreateProjectInput {
  const category = random.pick(PROJECT_CATEGORIES);
  const words = PROJECT_WORDS[category];
  const name = `${random.pick(words.verbs)} ${random.pick(words.objects)}`;
  const details = `${random.pick(DETAIL_OPENERS)} ${random.pick(DETAIL_BODIES)} ${random.pick(DETAIL_BODIES)}`;
  const due = new Date(today.getTime() + random.int(-30, 240) * 86_400_000);
  return {
    name,
    details,
    dueDate: isoDay(due),
    category,
    assignedUserIds: random.sample(userIds, random.int(1, 4)),
  };
}

export const commentText = (random: Random): string => random.pick(COMMENTS);

// --- a real PNG, generated (no binary fixtures) -------------------------------------------------------

/** A 16×16 RGB avatar (two colours in a diagonal split, different for each index); about 100 bytes. */
export function avatarPng(index: number, size = 16): Buffer {
  const hue = (index * 47) % 360;
  const [r1, g1, b1] = hsl(hue, 0.55, 0.55);
  const [r2, g2, b2] = hsl((hue + 180) % 360, 0.45, 0.85);
  const rows: number[] = [];
  for (let y = 0; y < size; y += 1) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x += 1) rows.push(...(x + y < size ? [r1, g1, b1] : [r2, g2, b2]));
  }
  return rgbPng(size, size, Buffer.from(rows));
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
