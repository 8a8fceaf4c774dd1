import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import {
  closeAll,
  createProjectViaApi,
  openProject,
  projectPage,
  uniqueProjectName,
} from './support/projects';

test('@mention: type @ad, pick with the keyboard, send; the name shows and follows a rename live; axe clean', async ({
  browser,
}) => {
  const author = await newSignedInContext(browser, newUser('writer'));
  const mentioned = await newSignedInContext(browser, {
    ...newUser('adele'),
    displayName: `Adèle ${Date.now().toString(36)}`,
  });
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('mentions'),
      assignedUserIds: [mentioned.user.uid],
    });
    const page = author.page;
    await openProject(page, project);
    const box = projectPage.commentBox(page);
    await box.click();
    // Accents and case ignored: 'ad…' finds 'Adèle …'; the rest of the name narrows it to her.
    await box.pressSequentially(`Thanks @ad`);
    const suggestions = page.getByRole('listbox', { name: 'People to mention' });
    await expect(suggestions).toBeVisible();
    await box.pressSequentially('ele');
    const option = suggestions.getByRole('option', { name: mentioned.user.displayName });
    await expect(option).toBeVisible();
    await expectNoAxeViolations(page);
    // Arrow to her option (it may not be first), then Enter picks it.
    for (let step = 0; step < 8 && (await option.getAttribute('aria-selected')) !== 'true'; step += 1)
      await box.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
    await box.press('Enter');
    await expect(suggestions).toHaveCount(0);
    await expect(box).toHaveValue(`Thanks @${mentioned.user.displayName} `);
    await box.pressSequentially('for the review');
    await projectPage.addComment(page).click();

    const mention = page.locator('.comment-content .mention');
    await expect(mention).toHaveText(`@${mentioned.user.displayName}`);

    // Renamed in another browser: the comment shows the new name without a reload.
    const renamed = `Adele Renamed ${Date.now().toString(36)}`;
    const response = await mentioned.context.request.patch('/api/account/profile', {
      multipart: { displayName: renamed },
    });
    expect(response.ok()).toBe(true);
    await expect(mention).toHaveText(`@${renamed}`);
  } finally {
    await closeAll(author.context, mentioned.context);
  }
});
