import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { NonceProvider } from 'react-select';
import {
  formatCalendarDay,
  messages,
  projectPath,
  type CreateProjectInput,
  type Project,
} from '../../../common';
import { DojoError } from '../../../sdk';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import type { FormAttachmentParts } from '../../hooks/use-attachments';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getCspNonce } from '../../lib/csp-nonce';
import { dojo } from '../../lib/dojo-client';
import { mayManage, titleWithoutProject, useProjectAtAddress } from './project-at-address';
import {
  ProjectForm,
  categoryLabel,
  changedProjectFields,
  projectFormValues,
  type ProjectFormValues,
} from './project-form';
import './create-project-page.css';
import './edit-project-page.css';

/** What an edit refused with a conflict had changed: the values typed, and which fields they changed. */
interface Unsaved {
  typed: ProjectFormValues;
  fields: Array<keyof ProjectFormValues>;
}

const FIELD_LABELS: Record<keyof ProjectFormValues, string> = {
  name: 'Project name',
  details: 'Project Details',
  dueDate: 'Due date',
  category: 'Category',
  assignees: 'Assigned to',
};

function shownValue(values: ProjectFormValues, field: keyof ProjectFormValues): string {
  switch (field) {
    case 'dueDate':
      return formatCalendarDay(values.dueDate);
    case 'category':
      return values.category ? categoryLabel(values.category) : '';
    case 'assignees':
      return values.assignees.map((option) => option.label).join(', ');
    default:
      return values[field];
  }
}

/**
 * The changes the user had made when their save was refused because someone else saved first: the form
 * now holds the newer version, and this keeps their changes in view until they put them back (over the
 * newer version, field by field) or discard them.
 */
function UnsavedChanges({
  unsaved,
  onRestore,
  onDiscard,
}: {
  unsaved: Unsaved;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <section className="inset unsaved-changes" aria-labelledby="unsaved-heading">
      <h2 id="unsaved-heading">Your changes, not saved</h2>
      <dl>
        {unsaved.fields.map((field) => (
          <div key={field}>
            <dt>{FIELD_LABELS[field]}</dt>
            <dd className={field === 'details' ? 'unsaved-details' : undefined}>
              {shownValue(unsaved.typed, field)}
            </dd>
          </div>
        ))}
      </dl>
      <div className="unsaved-actions">
        <button className="btn" type="button" onClick={onRestore}>
          Put my changes back in the form
        </button>
        <button className="btn" type="button" onClick={onDiscard}>
          Discard my changes
        </button>
      </div>
    </section>
  );
}

/**
 * The form, started from the project as it was when the page opened: its version goes with the save,
 * so the server refuses it (409) if someone else saved meanwhile. Then the form loads the newer version
 * and the user's own changes stay on show beside it until they choose. While the user has changed
 * nothing, the form simply follows the project live.
 */
function EditProjectForm({
  project,
  attachments,
}: {
  project: Project;
  attachments: FormAttachmentParts | undefined;
}) {
  const navigate = useNavigate();
  const [base, setBase] = useState(project);
  const [values, setValues] = useState(() => projectFormValues(project));
  const [unsaved, setUnsaved] = useState<Unsaved | null>(null);
  const [saving, setSaving] = useState(false);
  // Files to add: they upload once the changes are saved (the project page shows their progress).
  const [files, setFiles] = useState<File[]>([]);

  const newer = project.version > base.version && !saving;
  if (newer && unsaved === null && changedProjectFields(values, projectFormValues(base)).length === 0) {
    setBase(project);
    setValues(projectFormValues(project));
  }

  const send = async (input: CreateProjectInput): Promise<string | void> => {
    const submitted = values;
    setSaving(true);
    try {
      setBase(await dojo.projects.update(project.id, { ...input, version: base.version }));
    } catch (error) {
      if (!(error instanceof DojoError) || error.code !== 'conflict') throw error;
      const latest = await dojo.projects.get(project.id);
      const fields = changedProjectFields(submitted, projectFormValues(base));
      setBase(latest);
      setValues(projectFormValues(latest));
      setUnsaved(fields.length > 0 ? { typed: submitted, fields } : null);
      return messages.projectChanged;
    } finally {
      setSaving(false);
    }
    const sentFiles = files;
    setFiles([]);
    await attachments?.attachPending(project.id, sentFiles);
    await navigate(projectPath(project.id));
  };

  return (
    <>
      <div className="form-status" role="status">
        {newer && (
          <p>
            This project has been changed since you started editing. Saving will show you the newer version
            first.
          </p>
        )}
      </div>
      <ProjectForm values={values} onChange={setValues} send={send} submitLabel="Save changes">
        {attachments && <attachments.PendingFiles files={files} onChange={setFiles} label="Attach files" />}
        {unsaved && (
          <UnsavedChanges
            unsaved={unsaved}
            onRestore={() => {
              const restored = { ...values };
              for (const field of unsaved.fields) Object.assign(restored, { [field]: unsaved.typed[field] });
              setValues(restored);
              setUnsaved(null);
            }}
            onDiscard={() => setUnsaved(null)}
          />
        )}
      </ProjectForm>
      <p className="edit-cancel">
        <Link to={projectPath(project.id)}>Back to the project</Link>
      </p>
    </>
  );
}

function EditProjectMessage({ text }: { text: string }) {
  return (
    <div className="create-project">
      <PageTitle>Edit project</PageTitle>
      <ErrorAlert message={text} />
    </div>
  );
}

/**
 * Edit a project (the creator or an admin): the create form's fields, rules and messages, filled with the
 * project, which this page follows live. A completed or deleted project shows 'No such document exists'.
 * Like the create page, it is its own chunk and wraps react-select in its `NonceProvider`.
 */
/** `attachments`: the picker for files to upload once the changes are saved (given by app/). */
export function EditProjectPage({ attachments }: { attachments?: FormAttachmentParts }) {
  const { id = '' } = useParams();
  const { user } = useAuthContext();
  const { validId, docs, error } = useProjectAtAddress(id);
  const project = docs?.[0];
  const missing = !validId || (docs !== null && docs.length === 0);

  useDocumentTitle(project ? `Edit ${project.name}` : titleWithoutProject(missing, error));

  if (project) {
    if (!mayManage(project, user)) {
      return (
        <div className="create-project">
          <PageTitle>{`Edit ${project.name}`}</PageTitle>
          <ErrorAlert message={messages.onlyCreatorEdits} />
          <p>
            <Link to={projectPath(project.id)}>Back to the project</Link>
          </p>
        </div>
      );
    }
    return (
      <NonceProvider nonce={getCspNonce() ?? ''} cacheKey="dojo">
        <div className="create-project">
          <PageTitle>{`Edit ${project.name}`}</PageTitle>
          <EditProjectForm key={project.id} project={project} attachments={attachments} />
        </div>
      </NonceProvider>
    );
  }
  if (missing) return <EditProjectMessage text={messages.noSuchDocument} />;
  if (error) return <EditProjectMessage text={messages.documentFailed} />;
  return (
    <div className="create-project">
      <PageTitle>Edit project</PageTitle>
      <p className="loading">{messages.loading}</p>
    </div>
  );
}
