import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { checkThumbnailFile } from '../lib/thumbnail-file';

/**
 * A picked profile thumbnail: the file, its check (reported to `onChecked`, e.g. the form's field message)
 * and a preview of it while it passes. Reading a file is asynchronous: only the latest pick may set the
 * message and the preview.
 */
export function useThumbnailPick(onChecked: (problem: string | undefined) => void) {
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const previewUrlRef = useRef<string | null>(null);
  const checkRunRef = useRef(0);

  const replacePreview = (next: File | null) => {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = next ? URL.createObjectURL(next) : null;
    setPreviewUrl(previewUrlRef.current);
  };

  useEffect(
    () => () => {
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
      previewUrlRef.current = null;
    },
    [],
  );

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    const run = ++checkRunRef.current;
    setFile(picked);
    replacePreview(null);
    const problem = await checkThumbnailFile(picked);
    if (run !== checkRunRef.current) return;
    onChecked(problem ?? undefined);
    replacePreview(problem ? null : picked);
  };

  /** Forgets the pick (after it was saved); the file input itself is cleared by its owner. */
  const clear = () => {
    checkRunRef.current += 1;
    setFile(null);
    replacePreview(null);
  };

  return { file, previewUrl, onChange, clear };
}
