import { messages } from '../../../common';
import { useDocumentTitle } from '../../app/use-document-title';

// PLACEHOLDER (issue "Foundation"): the live project details and comments come with issue 3.
export function ProjectPage() {
  useDocumentTitle('Project');
  return (
    <div className="project-details">
      <p className="loading">{messages.loading}</p>
    </div>
  );
}
