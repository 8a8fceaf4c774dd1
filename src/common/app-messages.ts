/**
 * The messages of what every signed-in first page shows (the frame, the users panel, the search box, the
 * SDK's errors, the dashboard), kept apart from the whole catalogue in messages.ts, which spreads them in:
 * a bundler keeps an object whole, so the first page imports these from here and the catalogue's other
 * strings load only with the screens that show them (docs/benchmarks.md, first-visit JavaScript).
 */
export const appMessages = {
  loading: 'Loading...',
  loadingUsers: 'Loading users...',
  fetchFailed: 'could not fetch the data',
  noProjects: 'No projects yet!',
  reconnecting: 'Reconnecting…',
  searchLabel: 'Search projects',
  searching: 'Searching...',
  searchNoResults: 'No results',
  internal: 'Something went wrong on our side. Please try again.',
  network: 'Could not reach the server. Check your connection and try again.',
} as const;
