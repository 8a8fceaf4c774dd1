import { formAttachmentParts } from '../features/attachments/form-parts';
import { EditProjectPage } from '../features/projects/edit-project-page';

/** The edit form with the attachments feature's picker (composed here: features do not meet). */
export function EditProjectScreen() {
  return <EditProjectPage attachments={formAttachmentParts} />;
}
