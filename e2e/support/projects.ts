import { randomBytes } from 'node:crypto';
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
  WebSocketRoute,
} from '@playwright/test';
import { newUser, signUpViaApi, type NewUser, type SignedInBrowser } from './fixtures';

/**
 * Helpers for projects, comments and the dashboard (docs/product-spec.md#2-screens-and-routes: Dashboard, Create, Project details). The
 * texts are the spec's and the DOM contract's own words, typed here on purpose: the tests check the product
 * against them, so they must not share the product's constants.
 */

export const projectMessages = {
  categoryRequired: 'Please select a project category.',
  assigneesRequired: 'Please assign the project to at least 1 user',
  nameRequired: 'Please enter a project name.',
  detailsRequired: 'Please enter the project details.',
  dueDateRequired: 'Please set a due date.',
  commentRequired: 'Please write a comment first.',
  noProjects: 'No projects yet!',
  noSuchDocument: 'No such document exists',
  deleteFailed: 'could not delete',
  loading: 'Loading...',
} as const;

export const DASHBOARD_FILTERS = ['all', 'mine', 'development', 'design', 'marketing', 'sales'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];
export type ProjectCategory = 'development' | 'design' | 'sales' | 'marketing';

interface UserRef {
  id: string;
  displayName: string;
  photoURL: string;
}

/** The parts of the API's project the tests look at. */
export interface ApiProject {
  id: string;
  name: string;
  details: string;
  dueDate: string;
  category: ProjectCategory;
  assignedUsersList: UserRef[];
  assignedUserIds: string[];
  createdBy: UserRef;
  createdAt: string;
  comments?: Array<{ id: string; displayName: string; content: string; createdAt: string }>;
}

export interface NewProject {
  name: string;
  details: string;
  /** A calendar day, YYYY-MM-DD. */
  dueDate: string;
  category: ProjectCategory;
  assignedUserIds: string[];
}

/** A word no other test's projects or comments hold (for search). */
export const uniqueWord = (label: string): string => `${label}${randomBytes(4).toString('hex')}`;

/** A project name no other test (or earlier run on the same server) uses. */
export function uniqueProjectName(label = 'project'): string {
  return `${label} ${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/**
 * A user whose display name starts with a capital letter. 'All Users' shows the first 50 profiles by
 * display name; the suite's other users are lower case, so this one stays on the first page however many
 * users the suite has made.
 */
export function earlyUser(label: string): NewUser {
  const user = newUser(label);
  return { ...user, displayName: user.displayName.charAt(0).toUpperCase() + user.displayName.slice(1) };
}

/** Like `newSignedInContext`, with context options (e.g. a time zone). */
export async function newSignedInContextWith(
  browser: Browser,
  user: NewUser,
  options: BrowserContextOptions,
): Promise<SignedInBrowser> {
  const context = await browser.newContext(options);
  const signedUp = await signUpViaApi(context.request, user);
  return { context, page: await context.newPage(), user: signedUp };
}

/** Closes contexts in the `finally` of a test, even when one of them is already closed. */
export async function closeAll(...contexts: BrowserContext[]): Promise<void> {
  await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
}

/** Creates a project through the real API as the user whose session `request` carries. */
export async function createProjectViaApi(
  request: APIRequestContext,
  input: Partial<NewProject> & Pick<NewProject, 'assignedUserIds'>,
): Promise<ApiProject> {
  const data: NewProject = {
    name: uniqueProjectName(),
    details: 'Seeded through the API by an e2e test.',
    dueDate: '2030-06-15',
    category: 'development',
    ...input,
  };
  const response = await request.post('/api/projects', { data });
  if (response.status() !== 201) {
    throw new Error(`creating project ${data.name} failed: ${response.status()} ${await response.text()}`);
  }
  return ((await response.json()) as { project: ApiProject }).project;
}

/** `GET /api/projects` (newest first), as the user whose session `request` carries. */
export async function listProjectsViaApi(
  request: APIRequestContext,
  query: { category?: ProjectCategory; assignedTo?: string; limit?: number } = {},
): Promise<ApiProject[]> {
  const response = await request.get('/api/projects', { params: { limit: 1000, ...query } });
  if (!response.ok())
    throw new Error(`listing projects failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { projects: ApiProject[] }).projects;
}

export async function addCommentViaApi(
  request: APIRequestContext,
  projectId: string,
  content: string,
): Promise<void> {
  const response = await request.post(`/api/projects/${encodeURIComponent(projectId)}/comments`, {
    data: { content },
  });
  if (response.status() !== 201) {
    throw new Error(`adding a comment failed: ${response.status()} ${await response.text()}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dashboard

export const dashboardHeading = (page: Page): Locator =>
  page.getByRole('heading', { name: 'Dashboard', exact: true });

const filterGroup = (page: Page): Locator => page.getByRole('group', { name: 'Filter projects' });

export const filterButton = (page: Page, filter: DashboardFilter): Locator =>
  filterGroup(page).getByRole('button', { name: filter, exact: true });

/** Every card of the dashboard's project list. */
export const projectCards = (page: Page): Locator => page.locator('ul.project-list > li');

/** The dashboard card of the project with this exact name. */
export const projectCard = (page: Page, name: string): Locator =>
  projectCards(page).filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

/** The cards whose name contains `part` (a test's own projects share a unique tag), in page order. */
export const projectCardsNamed = (page: Page, part: string): Locator =>
  projectCards(page).filter({ has: page.getByRole('heading', { level: 2, name: part }) });

/** The names (the `<h2>`s) of `cards`, for `toHaveText([...])`, which checks count and order. */
export const cardNames = (cards: Locator): Locator => cards.getByRole('heading', { level: 2 });

/** Opens the dashboard and waits for its first snapshot. */
export async function openDashboard(page: Page): Promise<void> {
  await page.goto('/');
  await expectDashboardLoaded(page);
}

async function expectDashboardLoaded(page: Page): Promise<void> {
  await dashboardHeading(page).waitFor();
  await page.getByText(projectMessages.loading, { exact: true }).first().waitFor({ state: 'detached' });
}

// ---------------------------------------------------------------------------------------------------------
// Create form

export const createForm = {
  heading: (page: Page) => page.getByRole('heading', { name: 'Create a new Project', exact: true }),
  /** The form itself (the 'All Users' panel beside it shows display names too). */
  form: (page: Page) =>
    page.locator('form').filter({ has: page.getByRole('button', { name: 'Add Project', exact: true }) }),
  name: (page: Page) => page.getByLabel('Project name:', { exact: true }),
  details: (page: Page) => page.getByLabel('Project Details:', { exact: true }),
  dueDate: (page: Page) => page.getByLabel('Set due date:', { exact: true }),
  category: (page: Page) => page.getByLabel('Project category:', { exact: true }),
  assignees: (page: Page) => page.getByLabel('Assign to:', { exact: true }),
  submit: (page: Page) => page.getByRole('button', { name: 'Add Project', exact: true }),
  /** The one alert box that holds every validation message. */
  alert: (page: Page) => page.getByRole('alert'),
};

/** Picks an option of a react-select: focus its input through the label, type, wait for the option, Enter. */
async function chooseOption(page: Page, input: Locator, typed: string, option: string): Promise<void> {
  await input.click();
  await input.pressSequentially(typed);
  // The menu lists options only once they are loaded (the users arrive over the live socket).
  await page.getByRole('option', { name: option, exact: true }).waitFor();
  await input.press('Enter');
}

export interface CreateFormInput {
  name: string;
  details: string;
  dueDate: string;
  /** What to type into 'Project category:' and the option it must offer, e.g. ['Des', 'Design']. */
  category: readonly [typed: string, option: string];
  /** Display names to assign. */
  assignees: readonly string[];
}

/** Fills every field of the create form through the UI, as a user would. */
export async function fillCreateForm(page: Page, input: CreateFormInput): Promise<void> {
  await createForm.name(page).fill(input.name);
  await createForm.details(page).fill(input.details);
  await createForm.dueDate(page).fill(input.dueDate);
  await chooseOption(page, createForm.category(page), input.category[0], input.category[1]);
  for (const displayName of input.assignees) {
    await chooseOption(page, createForm.assignees(page), displayName, displayName);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Project page

export const projectPage = {
  heading: (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }),
  completeButton: (page: Page) => page.getByRole('button', { name: 'Mark as Complete', exact: true }),
  commentsHeading: (page: Page) =>
    page.getByRole('heading', { level: 2, name: 'Project Comments', exact: true }),
  commentBox: (page: Page) => page.getByLabel('Add new comment:', { exact: true }),
  addComment: (page: Page) => page.getByRole('button', { name: 'Add Comment', exact: true }),
  /** The comment (a list item) whose content is exactly `content`. */
  comment: (page: Page, content: string) =>
    page.getByRole('listitem').filter({ has: page.getByText(content, { exact: true }) }),
};

/** Opens a project's page and waits until the project (not 'Loading...') is shown. */
export async function openProject(page: Page, project: Pick<ApiProject, 'id' | 'name'>): Promise<void> {
  await page.goto(`/projects/${encodeURIComponent(project.id)}`);
  await projectPage.heading(page, project.name).waitFor();
  await projectPage.commentsHeading(page).waitFor();
}

// ---------------------------------------------------------------------------------------------------------
// Live socket

/**
 * Holds the page's real /live connection until `release()` (nothing is mocked: once released, every frame
 * goes to the server and back unchanged), so the state before the first snapshot is observable.
 */
export async function holdLiveSocket(page: Page): Promise<{ release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket(/\/live$/, async (socket) => {
    const early: Array<string | Buffer> = [];
    let server: WebSocketRoute | undefined = undefined;
    socket.onMessage((message) => (server ? server.send(message) : early.push(message)));
    await released;
    server = socket.connectToServer();
    for (const message of early) server.send(message);
  });
  return { release };
}
