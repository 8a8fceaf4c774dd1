import { lazy, Suspense, type ComponentType } from 'react';
import {
  AttachmentsContext,
  type AttachmentParts,
  type PendingFilesProps,
} from '../../hooks/use-attachments';
import { filesFromPaste } from './pasted-files';

/**
 * The attachments feature's parts for the project page (see hooks/use-attachments). Small on purpose:
 * the panel, the picker and the storage client load with `import()` once the page shows them. (The
 * forms' parts are a module of their own, form-parts.tsx: one module imported by all three screens would
 * be a chunk of its own, one more for the entry to list.)
 */

const LazyProjectAttachments = lazy(() =>
  import('./project-attachments').then((module) => ({ default: module.ProjectAttachments })),
);
// The comment's files come with the panel's module: one chunk, loaded once for the page.
const LazyCommentAttachments = lazy(() =>
  import('./project-attachments').then((module) => ({ default: module.CommentAttachments })),
);
const LazyPendingFiles = lazy(() => import('./pending-files'));

function ProjectPanel(props: { projectId: string; creatorId: string }) {
  return (
    <Suspense fallback={null}>
      <LazyProjectAttachments {...props} />
    </Suspense>
  );
}

function CommentFiles(props: { projectId: string; commentId: string; creatorId: string }) {
  return (
    <Suspense fallback={null}>
      <LazyCommentAttachments {...props} />
    </Suspense>
  );
}

function PendingFiles(props: PendingFilesProps) {
  return (
    <Suspense fallback={null}>
      <LazyPendingFiles {...props} />
    </Suspense>
  );
}

const parts: AttachmentParts = {
  ProjectPanel,
  CommentFiles,
  PendingFiles,
  attachPending: async (projectId, files, commentId) => {
    if (files.length === 0) return;
    const { attachFiles } = await import('./attachment-uploads');
    attachFiles(projectId, files, commentId);
  },
  filesFromPaste,
};

/** The project page with the attachments' parts in reach of everything in it (the comment box too). */
export function withProjectAttachments(Screen: ComponentType): ComponentType {
  return function ProjectScreenWithAttachments() {
    return (
      <AttachmentsContext value={parts}>
        <Screen />
      </AttachmentsContext>
    );
  };
}
