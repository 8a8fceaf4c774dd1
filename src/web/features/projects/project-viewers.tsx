import { projectViewersQuery, type ProjectViewer } from '../../../common';
import { AvatarList } from '../../components/avatar-list';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useLiveQuery } from '../../hooks/use-live-query';

/**
 * 'Also looking': the other members with this project open right now, live. Following the query is what
 * counts this tab as looking (docs/decisions/027-mentions-and-who-is-looking.md), so it is mounted for as
 * long as the project page is.
 */
export function ProjectViewers({ projectId }: { projectId: string }) {
  const { user } = useAuthContext();
  const { docs } = useLiveQuery<ProjectViewer>(projectViewersQuery(projectId));
  const others = (docs ?? []).filter((viewer) => viewer.id !== user?.uid);
  return (
    <section className="project-viewers" aria-labelledby="project-viewers-heading">
      {/* A label, not a heading: it sits above the project's own title. */}
      <p id="project-viewers-heading" className="project-viewers-heading">
        Also looking:
      </p>
      {others.length > 0 ? (
        <AvatarList users={others} size={32} className="project-viewers-list" />
      ) : (
        <p className="project-viewers-none">Nobody else right now.</p>
      )}
    </section>
  );
}
