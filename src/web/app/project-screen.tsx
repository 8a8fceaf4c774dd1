import { withProjectAttachments } from '../features/attachments/project-parts';
import { ProjectPage } from '../features/projects/project-page';

/** The project page with the attachments feature's parts (composed here: features do not meet). */
export const ProjectScreen = withProjectAttachments(ProjectPage);
