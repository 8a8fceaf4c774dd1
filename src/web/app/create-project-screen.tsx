import { formAttachmentParts } from '../features/attachments/form-parts';
import { CreateProjectPage } from '../features/projects/create-project-page';

/** The create form with the attachments feature's picker (composed here: features do not meet). */
export function CreateProjectScreen() {
  return <CreateProjectPage attachments={formAttachmentParts} />;
}
