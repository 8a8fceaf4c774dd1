import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import {
  createProjectViaApi,
  filterButton,
  openDashboard,
  projectCardsNamed,
  uniqueProjectName,
  uniqueWord,
} from './support/projects';

/**
 * Presses Enter on the focused Export link and reads the CSV it downloads, one record per row keyed by the
 * header; the file is named `<prefix>-<date>.csv`.
 */
async function csvRowsDownloadedByEnter(page: Page, prefix: string): Promise<Record<string, string>[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${prefix}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  return parse(readFileSync(await download.path()), { bom: true, columns: true }) as Record<string, string>[];
}

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
  const rows = await csvRowsDownloadedByEnter(page, 'dojo-dashboard');
  expect(rows.map((row) => row.Name)).toEqual([`'${formula.name}`, plain.name]);
  expect(rows[0]).toMatchObject({ Category: 'design', Assignees: user.displayName, Comments: '0' });
  expect(rows[1]!.Link).toMatch(new RegExp(`/projects/${plain.id}$`));
});

test('the search results export as CSV, reached from the box by Tab', async ({ signedIn }) => {
  const { page, user } = signedIn;
  const word = uniqueWord('Quokka');
  // Enough results that the list scrolls: a scrolling box is a tab stop in Chromium unless it says otherwise.
  const found = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
      createProjectViaApi(page.request, {
        name: uniqueProjectName(`found ${n}`),
        details: `About the ${word} enclosure.`,
        assignedUserIds: [user.uid],
      }),
    ),
  );
  await createProjectViaApi(page.request, {
    name: uniqueProjectName('not found'),
    assignedUserIds: [user.uid],
  });

  await openDashboard(page);
  const box = page.getByRole('combobox', { name: 'Search projects' });
  await box.fill(word);
  await expect(page.getByRole('listbox', { name: 'Projects found' }).getByRole('option')).toHaveCount(
    found.length,
  );

  // Tab leaves the box for the Export links, and the results stay open meanwhile.
  const exports = page.getByRole('group', { name: 'Export the search results' });
  await expect(box).toBeFocused();
  await page.keyboard.press('Tab');
  const csv = exports.getByRole('link', { name: 'Export the search results as CSV' });
  await expect(csv).toBeFocused();
  await expectNoAxeViolations(page);
  const rows = await csvRowsDownloadedByEnter(page, 'dojo-search');
  expect(rows.map((row) => row.Name).sort()).toEqual(found.map((project) => project.name).sort());

  // Escape on a link closes the results and gives the focus back to the box.
  await csv.press('Escape');
  await expect(box).toBeFocused();
  await expect(exports).toBeHidden();
});
