/** Every user-facing string of the spec lives here once; UI and server import it. */
export const messages = {
  fetchFailed: 'could not fetch the data',
  loadingUsers: 'Loading users...',
  loading: 'Loading...',
  noSuchDocument: 'No such document exists',
  documentFailed: 'failed to get document',
  deleteFailed: 'could not delete',
  noProjects: 'No projects yet!',
  signupIncomplete: 'Could not complete signup',

  thumbnailRequired: 'Please select a file',
  thumbnailNotImage: 'Selected file must be an image',
  thumbnailTooLarge: 'Image file size must be less than 100kb',

  categoryRequired: 'Please select a project category.',
  assigneesRequired: 'Please assign the project to at least 1 user',

  emailRequired: 'Please enter your email address.',
  emailInvalid: 'The email address is badly formatted.',
  passwordRequired: 'Please enter your password.',
  passwordWeak: 'Password should be at least 8 characters.',
  passwordTooLong: 'Password should be at most 256 characters.',
  displayNameRequired: 'Please enter a display name.',
  displayNameTooLong: 'Display name should be at most 60 characters.',

  emailInUse: 'The email address is already in use by another account.',
  wrongCredentials: 'Wrong email or password.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  notSignedIn: 'You are not signed in. Please log in and try again.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  badRequest: 'The request is not valid.',
  crossOrigin: 'Cross-origin request refused.',
  payloadTooLarge: 'The request is too large.',
  internal: 'Something went wrong on our side. Please try again.',
  network: 'Could not reach the server. Check your connection and try again.',
} as const;
