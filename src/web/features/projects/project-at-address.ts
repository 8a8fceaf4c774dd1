import { messages, type AuthUser, type Project } from '../../../common';
import { useLiveQuery } from '../../hooks/use-live-query';

/** Ids the server could ever have made; anything else cannot exist, so it is not asked for. */
const MAX_ID_LENGTH = 64;

/** The project a page's address names (`:id`), followed live; an id that cannot exist is not asked for. */
export function useProjectAtAddress(id: string) {
  const validId = id.length > 0 && id.length <= MAX_ID_LENGTH;
  const { docs, error } = useLiveQuery<Project>(validId ? { kind: 'doc', collection: 'projects', id } : null);
  return { validId, docs, error };
}

/** The tab's title while a project's page has no project to show. */
export function titleWithoutProject(missing: boolean, error: unknown): string {
  return missing ? messages.noSuchDocument : error ? messages.documentFailed : messages.loading;
}

/** Its creator and the admins may edit, reopen or delete a project (the server holds the same rule). */
export function mayManage(project: { createdBy: { id: string } }, user: AuthUser | null): boolean {
  return user !== null && (project.createdBy.id === user.uid || user.role === 'admin');
}
