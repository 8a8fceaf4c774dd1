import { largePngFile, pngFile, svgFile, textFile } from './support/files';
import { expect, holdRequests, newUser, test } from './support/fixtures';
import { alertWith, fillLoginForm, fillSignupForm, greeting, navbar } from './support/ui';

// The spec's own words (docs/product-spec.md §5 and §8), typed here on purpose: these tests check the product
// against the spec, so they must not share the product's constants.
const messages = {
  thumbnailRequired: 'Please select a file',
  thumbnailNotImage: 'Selected file must be an image',
  thumbnailTooLarge: 'Image file size must be less than 100kb',
  wrongCredentials: 'Wrong email or password.',
  emailInUse: 'The email address is already in use by another account.',
  // Not the spec's: issue 9's hardening of display names.
  displayNameInvisible: 'Display name cannot contain control, invisible or text-direction characters.',
};

test.describe('signup', () => {
  test('a new user signs up and lands on the dashboard, greeted in the sidebar', async ({ page }) => {
    const user = newUser('signup');
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'sign up', exact: true })).toBeVisible();
    await expect(navbar.title(page)).toBeVisible();
    await expect(navbar.loginLink(page)).toBeVisible();
    await expect(navbar.signupLink(page)).toBeVisible();

    await fillSignupForm(page, user, pngFile());
    const signup = await holdRequests(page, '**/api/auth/signup');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('button', { name: 'loading', exact: true })).toBeDisabled();
    signup.release();

    await expect(page).toHaveURL('/');
    await expect(greeting(page, user.displayName)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New Project', exact: true })).toBeVisible();
    await expect(navbar.logoutButton(page)).toBeVisible();
    await expect(navbar.loginLink(page)).toHaveCount(0);
  });

  test('refuses a missing, non-image or too large thumbnail and creates no account', async ({
    page,
    request,
  }) => {
    const user = newUser('thumbnail');
    const submit = page.getByRole('button', { name: 'Sign up', exact: true });
    await page.goto('/signup');
    await fillSignupForm(page, user);

    await submit.click();
    await expect(alertWith(page, messages.thumbnailRequired)).toBeVisible();

    await page.getByLabel('Profile thumbnail:', { exact: true }).setInputFiles(svgFile());
    await submit.click();
    await expect(alertWith(page, messages.thumbnailNotImage)).toBeVisible();
    await expect(alertWith(page, messages.thumbnailRequired)).toHaveCount(0);

    await page.getByLabel('Profile thumbnail:', { exact: true }).setInputFiles(largePngFile());
    await submit.click();
    await expect(alertWith(page, messages.thumbnailTooLarge)).toBeVisible();
    await expect(alertWith(page, messages.thumbnailNotImage)).toHaveCount(0);

    await page.getByLabel('Profile thumbnail:', { exact: true }).setInputFiles(textFile());
    await submit.click();
    await expect(alertWith(page, messages.thumbnailNotImage)).toBeVisible();
    await expect(alertWith(page, messages.thumbnailTooLarge)).toHaveCount(0);

    await expect(page).toHaveURL('/signup');
    const login = await request.post('/api/auth/login', {
      data: { email: user.email, password: user.password },
    });
    expect(login.status()).toBe(401);
  });

  test('refuses a display name with a text-direction override before sending anything', async ({
    page,
    request,
  }) => {
    const user = { ...newUser('bidi'), displayName: 'admin\u202Egnp.exe' };
    let signups = 0;
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/auth/signup')) signups += 1;
    });
    await page.goto('/signup');
    await fillSignupForm(page, user, pngFile());
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText(messages.displayNameInvisible, { exact: true })).toBeVisible();
    await expect(page.getByLabel('display name:', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/signup');
    expect(signups).toBe(0);
    const login = await request.post('/api/auth/login', {
      data: { email: user.email, password: user.password },
    });
    expect(login.status()).toBe(401);
  });

  test('shows the provider message when the email is already in use', async ({ page, user }) => {
    await page.goto('/signup');
    await fillSignupForm(page, { ...newUser('duplicate'), email: user.email }, pngFile());
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    await expect(alertWith(page, messages.emailInUse)).toBeVisible();
    await expect(page).toHaveURL('/signup');
  });
});

test.describe('forms', () => {
  test('a field the server refuses is marked and focused; a pending submit keeps the focus', async ({
    page,
    user,
  }) => {
    await page.goto('/signup');
    await fillSignupForm(page, { ...newUser('taken'), email: user.email }, pngFile());
    const signup = await holdRequests(page, '**/api/auth/signup');
    const submit = page.getByRole('button', { name: 'Sign up', exact: true });
    await submit.focus();
    await page.keyboard.press('Enter');
    const pending = page.getByRole('button', { name: 'loading', exact: true });
    await expect(pending).toBeDisabled();
    await expect(pending).toBeFocused();
    signup.release();

    const email = page.getByLabel('email:', { exact: true });
    await expect(alertWith(page, messages.emailInUse)).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(email).toHaveAccessibleDescription(messages.emailInUse);
    await expect(email).toHaveValue(user.email);
  });
});

test.describe('login and logout', () => {
  test('a wrong password is refused, the right one signs in', async ({ page, user }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'login', exact: true })).toBeVisible();
    const submit = page.getByRole('button', { name: 'Log in', exact: true });

    await fillLoginForm(page, user.email, `${user.password}-wrong`);
    await submit.click();
    await expect(alertWith(page, messages.wrongCredentials)).toBeVisible();
    await expect(page).toHaveURL('/login');

    await fillLoginForm(page, user.email, user.password);
    const login = await holdRequests(page, '**/api/auth/login');
    await submit.click();
    await expect(page.getByRole('button', { name: 'loading', exact: true })).toBeDisabled();
    login.release();

    await expect(page).toHaveURL('/');
    await expect(greeting(page, user.displayName)).toBeVisible();
  });

  test('logging out returns to /login and the dashboard is closed again', async ({ signedIn }) => {
    const { page, user } = signedIn;
    await page.goto('/');
    await expect(greeting(page, user.displayName)).toBeVisible();

    const logout = await holdRequests(page, '**/api/auth/logout');
    await navbar.logoutButton(page).click();
    await expect(page.getByRole('button', { name: 'Logging out...', exact: true })).toBeDisabled();
    logout.release();

    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'login', exact: true })).toBeVisible();
    await expect(navbar.loginLink(page)).toBeVisible();
    await expect(navbar.signupLink(page)).toBeVisible();

    await page.goto('/');
    await expect(page).toHaveURL('/login');
    await expect(greeting(page, user.displayName)).toHaveCount(0);
  });
});

test.describe('route guards', () => {
  for (const path of ['/', '/create', '/projects/abc']) {
    test(`signed out, ${path} redirects to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL('/login');
      await expect(page.getByRole('heading', { name: 'login', exact: true })).toBeVisible();
    });
  }

  test('signed in, /login and /signup redirect to the dashboard', async ({ signedIn }) => {
    const { page, user } = signedIn;
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expect(page).toHaveURL('/');
      await expect(greeting(page, user.displayName)).toBeVisible();
    }
  });
});
