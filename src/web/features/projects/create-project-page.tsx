import { useState } from 'react';
import { useNavigate } from 'react-router';
import { NonceProvider } from 'react-select';
import { CLIENT_ROUTES, announcements, projectPath, type CreateProjectInput } from '../../../common';
import { PageTitle } from '../../components/page-title';
import { getCspNonce } from '../../lib/csp-nonce';
import { dojo } from '../../lib/dojo-client';
import { useAnnouncer } from '../../hooks/use-announcer';
import type { FormAttachmentParts } from '../../hooks/use-attachments';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { EMPTY_PROJECT_FORM, ProjectForm } from './project-form';
import './create-project-page.css';

function CreateProjectForm({ attachments }: { attachments: FormAttachmentParts | undefined }) {
  const navigate = useNavigate();
  const { say } = useAnnouncer();
  const [values, setValues] = useState(EMPTY_PROJECT_FORM);
  const [files, setFiles] = useState<File[]>([]);
  return (
    <ProjectForm
      values={values}
      onChange={setValues}
      send={async (input: CreateProjectInput) => {
        // Navigate on the result of this call, never on a stale error state (docs/product-spec.md#flaw-9).
        const project = await dojo.projects.create(input);
        say(announcements.projectCreated);
        if (files.length === 0 || !attachments) {
          await navigate(CLIENT_ROUTES.dashboard);
          return;
        }
        // Files picked before the project existed upload now; its page shows their progress.
        await attachments.attachPending(project.id, files);
        await navigate(projectPath(project.id));
      }}
      submitLabel="Add Project"
    >
      {attachments && <attachments.PendingFiles files={files} onChange={setFiles} label="Attach files" />}
    </ProjectForm>
  );
}

/**
 * This page is its own chunk (see app-routes), so react-select and its styling engine load only here.
 * NonceProvider is react-select's emotion CacheProvider around `createCache({ key, nonce })`: the
 * `<style>` elements it inserts carry the request's nonce and pass the server's CSP.
 */
/** `attachments`: the picker for files to upload once the project exists (given by app/). */
export function CreateProjectPage({ attachments }: { attachments?: FormAttachmentParts }) {
  useDocumentTitle('Create a new Project');
  return (
    <NonceProvider nonce={getCspNonce() ?? ''} cacheKey="dojo">
      <div className="create-project">
        <PageTitle>Create a new Project</PageTitle>
        <CreateProjectForm attachments={attachments} />
      </div>
    </NonceProvider>
  );
}
