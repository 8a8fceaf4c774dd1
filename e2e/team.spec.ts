import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { messages } from '../src/common/messages';
import { expectNoAxeViolations } from './support/axe';
import { pngFile } from './support/files';
import { expect, newUser, signUpViaApi, test, type TestUser } from './support/fixtures';
import {
  closeAll,
  createProjectViaApi,
  openProject,
  projectCard,
  uniqueProjectName,
} from './support/projects';
import { startOwnServer } from './support/server-process';
import { fillLoginForm, fillSignupForm, greeting, userRow } from './support/ui';

/**
 * Team accounts in the browser (issue 11). A server of the file's own, so its first signup is the
 * install's owner. The test that changes who may sign up runs a server of its own, so the policy cannot
 * reach other tests' signups; the others share one server per worker (a server start is seconds on a busy
 * machine) and each makes its own members, so they do not depend on each other or on their order.
 */
interface Team {
  owner: { context: BrowserContext; page: Page; user: TestUser };
  /** A fresh browser (another person) on this test's server. */
  person(): Promise<BrowserContext>;
}

interface TeamServer {
  url: string;
  owner: TestUser;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

async function startTeamServer(playwright: PlaywrightWorkerArgs['playwright']): Promise<TeamServer> {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-team-'));
  const server = await startOwnServer(tempDir);
  const stop = async () => {
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  };
  const request = await playwright.request.newContext({ baseURL: server.url });
  try {
    return { url: server.url, owner: await signUpViaApi(request, newUser('owner')), stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    await request.dispose();
  }
}

/** The owner signed in, in a browser of their own, and a way to open more browsers, on `teamServer`. */
async function openTeam(browser: Browser, teamServer: TeamServer, contexts: BrowserContext[]): Promise<Team> {
  const person = async () => {
    const context = await browser.newContext({ baseURL: teamServer.url });
    contexts.push(context);
    return context;
  };
  const ownerContext = await person();
  const login = await ownerContext.request.post('/api/auth/login', {
    data: { email: teamServer.owner.email, password: teamServer.owner.password },
  });
  expect(login.ok()).toBe(true);
  return {
    owner: { context: ownerContext, page: await ownerContext.newPage(), user: teamServer.owner },
    person,
  };
}

const teamTest = test.extend<{ team: Team; ownTeam: Team }, { sharedTeamServer: TeamServer }>({
  sharedTeamServer: [
    async ({ playwright }, use) => {
      const teamServer = await startTeamServer(playwright);
      try {
        await use(teamServer);
      } finally {
        await teamServer.stop();
      }
    },
    { scope: 'worker' },
  ],
  /** The owner and people on this worker's shared team server. */
  team: async ({ browser, sharedTeamServer }, use) => {
    const contexts: BrowserContext[] = [];
    try {
      await use(await openTeam(browser, sharedTeamServer, contexts));
    } finally {
      await closeAll(...contexts);
    }
  },
  /** The owner and people on a server of this test's alone. */
  ownTeam: async ({ browser, playwright }, use) => {
    const teamServer = await startTeamServer(playwright);
    const contexts: BrowserContext[] = [];
    try {
      await use(await openTeam(browser, teamServer, contexts));
    } finally {
      await closeAll(...contexts);
      await teamServer.stop();
    }
  },
});

/** A member signed in in a browser of their own. */
async function member(team: Team, label: string) {
  const context = await team.person();
  const user = await signUpViaApi(context.request, newUser(label));
  return { context, page: await context.newPage(), user };
}

const sidebarLink = (page: Page, name: string) =>
  page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name, exact: true });

teamTest(
  'the owner switches to invitation only: an uninvited signup is refused, an invited one gets in',
  async ({ ownTeam: team }) => {
    const { page } = team.owner;
    await page.goto('/');
    await sidebarLink(page, 'Invitations').click();
    await expect(page.getByRole('heading', { name: 'Who can sign up' })).toBeVisible();
    await expectNoAxeViolations(page);

    // Keyboard alone: choose 'Invitation only' and save.
    const invitationOnly = page.getByRole('radio', { name: 'Invitation only' });
    await invitationOnly.focus();
    await page.keyboard.press('Space');
    await expect(invitationOnly).toBeChecked();
    await page.getByRole('button', { name: 'Save', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Saved: who can sign up has changed.')).toBeVisible();

    const stranger = await (await team.person()).newPage();
    await stranger.goto('/signup');
    await expect(stranger.getByText(messages.signupInvitationOnly).first()).toBeVisible();
    await fillSignupForm(stranger, newUser('stranger'), pngFile());
    await stranger.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(
      stranger.getByRole('alert').filter({ hasText: messages.signupInvitationOnly }),
    ).toBeVisible();
    await expect(stranger).toHaveURL(/\/signup/);

    await page.getByLabel('Uses:').fill('1');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    expect(link).toContain('/signup?invitation=');
    await expect(page.getByRole('cell', { name: 'Open', exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page);

    const invited = await (await team.person()).newPage();
    const invitedUser = newUser('invited');
    await invited.goto(link);
    await expect(invited.getByText('You have been invited to join.')).toBeVisible();
    await expectNoAxeViolations(invited);
    await fillSignupForm(invited, invitedUser, pngFile());
    await invited.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(greeting(invited, invitedUser.displayName)).toBeVisible();

    // Used up: the same link now says so.
    const late = await (await team.person()).newPage();
    await late.goto(link);
    await expect(late.getByText(messages.invitationUsed)).toBeVisible();
  },
);

teamTest(
  "the owner deactivates a member from the members page and the member's open tab is signed out live",
  async ({ team }) => {
    const leaving = await member(team, 'leaving');
    await leaving.page.goto('/');
    await expect(greeting(leaving.page, leaving.user.displayName)).toBeVisible();

    const { page } = team.owner;
    await page.goto('/');
    await expect(userRow(page, leaving.user.displayName)).toBeVisible();
    await sidebarLink(page, 'Members').click();
    const row = page.getByRole('row').filter({ hasText: leaving.user.email });
    await expect(row).toBeVisible();
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await expect(row.getByRole('cell', { name: 'Deactivated', exact: true })).toBeVisible();

    // No reload in the member's tab: the server ended its session and told the socket.
    await expect(leaving.page).toHaveURL(/\/login$/);
    await fillLoginForm(leaving.page, leaving.user.email, leaving.user.password);
    await leaving.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(
      leaving.page.getByRole('alert').filter({ hasText: messages.accountDeactivated }),
    ).toBeVisible();

    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'All Users', exact: true })).toBeVisible();
    await expect(page.getByText(leaving.user.displayName, { exact: true })).toHaveCount(0);
  },
);

teamTest(
  "a member's new name and avatar show live on another member's dashboard, users panel and project page",
  async ({ team }) => {
    const changer = await member(team, 'changer');
    const watcher = await member(team, 'watcher');
    const project = await createProjectViaApi(changer.context.request, {
      name: uniqueProjectName('renamed'),
      assignedUserIds: [changer.user.uid, watcher.user.uid],
    });
    const dashboard = watcher.page;
    await dashboard.goto('/');
    await expect(projectCard(dashboard, project.name)).toBeVisible();
    await expect(userRow(dashboard, changer.user.displayName)).toBeVisible();
    const projectTab = await watcher.context.newPage();
    await openProject(projectTab, project);
    await expect(projectTab.getByText(changer.user.displayName).first()).toBeVisible();
    const avatarSrc = (name: string) => userRow(dashboard, name).locator('img').first().getAttribute('src');
    const oldPhoto = await avatarSrc(changer.user.displayName);
    expect(oldPhoto).toContain('/v0/b/');

    const settings = changer.page;
    await settings.goto('/');
    await sidebarLink(settings, `Hey ${changer.user.displayName} Account settings`).click();
    await expect(settings.getByRole('heading', { name: 'Account settings' })).toBeVisible();
    await expectNoAxeViolations(settings);
    const newName = `${changer.user.displayName} renamed`;
    await settings.getByLabel('Display name:').fill(newName);
    await settings.getByLabel('New avatar (optional):').setInputFiles(pngFile('new-face.png'));
    await settings.getByRole('button', { name: 'Save profile' }).click();
    await expect(greeting(settings, newName)).toBeVisible();

    // The other member's tabs, without a reload.
    await expect(userRow(dashboard, newName)).toBeVisible();
    const newPhoto = await avatarSrc(newName);
    expect(newPhoto).toContain('new-face.png');
    expect(newPhoto).not.toBe(oldPhoto);
    await expect(
      projectCard(dashboard, project.name).locator(`img[src="${newPhoto}"]`).first(),
    ).toBeAttached();
    await expect(projectTab.getByText(newName).first()).toBeVisible();
    await expect(projectTab.getByText(changer.user.displayName, { exact: true })).toHaveCount(0);
  },
);

teamTest(
  'changing the password signs out the other session; the sessions list can sign out the rest',
  async ({ team }) => {
    const user = await member(team, 'careful');
    const otherDevice = await team.person();
    const other = await otherDevice.newPage();
    await other.goto('/login');
    await fillLoginForm(other, user.user.email, user.user.password);
    await other.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(greeting(other, user.user.displayName)).toBeVisible();

    const page = user.page;
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Sign out .*, last seen/ })).toHaveCount(1);

    // Keyboard alone through the password form.
    await page.getByLabel('Current password:').focus();
    await page.keyboard.type(user.user.password);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('New password:')).toBeFocused();
    await page.keyboard.type('a much longer new secret');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible();

    await expect(other).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: /^Sign out .*, last seen/ })).toHaveCount(0);
    await expect(greeting(page, user.user.displayName)).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

teamTest(
  'the password reset screens have no axe violations and say when a link is not valid',
  async ({ team }) => {
    const page = await (await team.person()).newPage();
    await page.goto('/reset-password?token=not-a-real-token');
    await expect(page.getByText(messages.resetLinkInvalid)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto('/forgot-password');
    await expect(page.getByRole('heading').first()).toBeVisible();
    await expectNoAxeViolations(page);
  },
);
