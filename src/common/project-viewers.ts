import type { LiveQuery } from './live-protocol-schemas';

/**
 * Who is looking (docs/decisions/027-mentions-and-who-is-looking.md): a member with the project open in at
 * least one tab, on any instance. The id is the member's user id; a member with two tabs shows once.
 */
export type ProjectViewer = {
  id: string;
  projectId: string;
  displayName: string;
  photoURL: string;
};

/** Subscribing to this query is looking at the project: the server counts the subscriber as a viewer. */
export const projectViewersQuery = (projectId: string): LiveQuery => ({
  kind: 'query',
  collection: 'project_viewers',
  where: [{ field: 'projectId', op: '==', value: projectId }],
});
