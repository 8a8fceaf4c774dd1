import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * The axe rules a theme decides: text against its background, and links told apart from the text around
 * them by colour alone. A theme test runs only these on each screen; the full set runs on every screen in
 * the specs of that screen (accessibility.spec.ts, projects-accessibility.spec.ts and the features' own).
 */
const THEME_RULES = ['color-contrast', 'link-in-text-block'];

async function expectNone(builder: AxeBuilder): Promise<void> {
  const results = await builder.analyze();
  const summary = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  expect(summary).toEqual([]);
}

/** axe's findings on the page as it is now, as a readable list; the test expects none. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await expectNone(new AxeBuilder({ page }));
}

/** Like `expectNoAxeViolations`, with only the rules a colour theme decides (see THEME_RULES). */
export async function expectNoThemeAxeViolations(page: Page): Promise<void> {
  await expectNone(new AxeBuilder({ page }).withRules(THEME_RULES));
}
