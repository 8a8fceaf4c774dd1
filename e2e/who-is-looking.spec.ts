import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import { closeAll, createProjectViaApi, openProject, uniqueProjectName } from './support/projects';

test('who is looking: B opens the project and A sees B, live; B closes the tab and A’s list clears; axe clean', async ({
  browser,
}) => {
  const a = await newSignedInContext(browser, newUser('looker'));
  const b = await newSignedInContext(browser, newUser('visitor'));
  try {
    const project = await createProjectViaApi(a.context.request, {
      name: uniqueProjectName('looking'),
      assignedUserIds: [b.user.uid],
    });
    await openProject(a.page, project);
    const alsoLooking = a.page.getByRole('region', { name: 'Also looking:' });
    await expect(alsoLooking.getByText('Nobody else right now.')).toBeVisible();

    await openProject(b.page, project);
    // The name is text in the list (the picture is decorative), and the viewer does not list themself.
    await expect(alsoLooking.getByRole('listitem')).toHaveText([b.user.displayName]);
    await expect(
      b.page
        .getByRole('region', { name: 'Also looking:' })
        .getByRole('listitem', { name: b.user.displayName }),
    ).toHaveCount(0);
    await expect(b.page.getByRole('region', { name: 'Also looking:' }).getByRole('listitem')).toHaveText([
      a.user.displayName,
    ]);
    await expectNoAxeViolations(a.page);

    await b.page.close();
    await expect(alsoLooking.getByRole('listitem')).toHaveCount(0);
    await expect(alsoLooking.getByText('Nobody else right now.')).toBeVisible();
  } finally {
    await closeAll(a.context, b.context);
  }
});
