import { createContext, use, type ComponentType } from 'react';

/** What a form shows for files picked before what they belong to exists (see features/attachments). */
export interface PendingFilesProps {
  files: readonly File[];
  onChange: (files: File[]) => void;
  label: string;
}

/**
 * Attachments as the project screens use them (issue 31). Features do not import each other, so the
 * composition root (app/) hands the attachments feature's parts to the project screens; without them a
 * screen simply shows no attachments.
 */
export interface FormAttachmentParts {
  /** A picker in a form; the files wait there until the form is sent. */
  PendingFiles: ComponentType<PendingFilesProps>;
  /** Uploads files picked before the project (or comment) existed, now that it does. */
  attachPending: (projectId: string, files: readonly File[], commentId?: string) => Promise<void>;
}

/**
 * What the project page uses (the create and edit forms get `FormAttachmentParts` as a prop instead: a
 * context module shared by three screens would be one more chunk for the entry to list).
 */
export interface AttachmentParts extends FormAttachmentParts {
  /** The project page's panel: limits, picker, drop zone, paste, uploads and the live list. */
  ProjectPanel: ComponentType<{ projectId: string; creatorId: string }>;
  /** The files attached to one comment, shown under it, live (nothing while it has none). */
  CommentFiles: ComponentType<{ projectId: string; commentId: string; creatorId: string }>;
  /** The files a paste carries, with pasted images given telling names. */
  filesFromPaste: (data: DataTransfer | null) => File[];
}

export const AttachmentsContext = createContext<AttachmentParts | null>(null);

export function useAttachments(): AttachmentParts | null {
  return use(AttachmentsContext);
}
