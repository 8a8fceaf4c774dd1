import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import {
  createProjectViaApi,
  filterButton,
  openDashboard,
  projectCardsNamed,
  uniqueProjectName,
} from './support/projects';

test("Export CSV on the dashboard downloads the list's projects, with its filter, formulas escaped", async ({
  signedIn,
}) => {
  const { page, user } = signedIn;
  const tag = uniqueProjectName('export');
  const plain = await createProjectViaApi(page.request, {
    name: `${tag} plain`,
    assignedUserIds: [user.uid],
  });
  const formula = await createProjectViaApi(page.request, {
    name: `=SUM(1,2) ${tag}`,
    category: 'design',
    assignedUserIds: [user.uid],
  });

  await openDashboard(page);
  // 'mine': only this user's projects, so other tests' projects stay out of the file.
  await filterButton(page, 'mine').click();
  await expect(projectCardsNamed(page, tag)).toHaveCount(2);

  const exports = page.getByRole('group', { name: 'Export the dashboard' });
  await expect(exports).toBeVisible();
  await expectNoAxeViolations(page);
  const csv = exports.getByRole('link', { name: 'Export the dashboard as CSV' });
  await expect(csv).toHaveAttribute('href', new RegExp(`assignedTo=${user.uid}`));
  // By keyboard: the link takes the focus, and Enter downloads.
  await csv.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/^dojo-dashboard-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parse(readFileSync(await download.path()), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  expect(rows.map((row) => row.Name)).toEqual([`'${formula.name}`, plain.name]);
  expect(rows[0]).toMatchObject({ Category: 'design', Assignees: user.displayName, Comments: '0' });
  expect(rows[1]!.Link).toMatch(new RegExp(`/projects/${plain.id}$`));
});
