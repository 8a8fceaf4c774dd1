import { useId, useState } from 'react';
import { formatBytes } from '../../../common/attachments';
import type { PendingFilesProps } from '../../hooks/use-attachments';
import { refusalBeforeUpload } from './attachment-uploads';
import { PickFilesButton } from './pick-files-button';
import { limitsText, useAttachmentLimits } from './use-attachment-limits';
import './attachments.css';

/**
 * Files picked in a form before what they belong to exists (a new project, a comment not yet sent): the
 * limits are shown first, a file that breaks them is refused at once with the reason, and the others wait
 * in a list until the form is sent.
 */
export default function PendingFiles({ files, onChange, label }: PendingFilesProps) {
  const limits = useAttachmentLimits();
  const limitsId = useId();
  const [refusals, setRefusals] = useState<string[]>([]);
  const add = (picked: File[]) => {
    const accepted = [...files];
    const refused: string[] = [];
    for (const file of picked) {
      const pendingBytes = accepted.reduce((sum, other) => sum + other.size, 0);
      const refusal = refusalBeforeUpload(file.size, pendingBytes);
      if (refusal) refused.push(`${file.name}: ${refusal}`);
      else accepted.push(file);
    }
    setRefusals(refused);
    onChange(accepted);
  };
  return (
    <div className="pending-files">
      <div className="attachment-intake">
        <PickFilesButton label={label} onFiles={add} describedBy={limitsId} />
        <p id={limitsId} className="attachment-limits">
          {limitsText(limits)}
        </p>
      </div>
      {refusals.length > 0 && (
        <div role="alert">
          {refusals.map((refusal) => (
            <p key={refusal} className="error">
              {refusal}
            </p>
          ))}
        </div>
      )}
      {files.length > 0 && (
        <ul className="pending-file-list" aria-label="Files to attach">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="pending-file">
              <span className="upload-name">{file.name}</span>
              <span className="upload-size">{formatBytes(file.size)}</span>
              <button
                type="button"
                className="btn attachment-button"
                aria-label={`Remove ${file.name}`}
                onClick={() => onChange(files.filter((_, other) => other !== index))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
