import { lazy, Suspense } from 'react';
import type { FormAttachmentParts, PendingFilesProps } from '../../hooks/use-attachments';

/**
 * The attachments feature's parts for the create and edit forms (see hooks/use-attachments). Small on
 * purpose: the picker's UI and the storage client load with `import()` when a form first shows them.
 */

const LazyPendingFiles = lazy(() => import('./pending-files'));

function PendingFiles(props: PendingFilesProps) {
  return (
    <Suspense fallback={null}>
      <LazyPendingFiles {...props} />
    </Suspense>
  );
}

export const formAttachmentParts: FormAttachmentParts = {
  PendingFiles,
  attachPending: async (projectId, files, commentId) => {
    if (files.length === 0) return;
    const { attachFiles } = await import('./attachment-uploads');
    attachFiles(projectId, files, commentId);
  },
};
