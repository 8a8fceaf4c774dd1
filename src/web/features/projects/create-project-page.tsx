import { useDocumentTitle } from '../../app/use-document-title';

// PLACEHOLDER (issue "Foundation"): the create-project form comes with issue 3.
export function CreateProjectPage() {
  useDocumentTitle('Create a new Project');
  return (
    <div className="create-form">
      <h2 className="page-title">Create a new Project</h2>
    </div>
  );
}
