/**
 * Files taken from a paste (an image copied to the clipboard) or a drop. Small and free of imports on
 * purpose: the comment form uses it from the project screen's own chunk, before the attachments chunk
 * has loaded.
 */

/** A name for a pasted image: browsers call every one 'image.png', which says nothing in a list. */
function pastedName(file: File, at: Date): string {
  const extension = /\.[a-z0-9]{1,8}$/i.exec(file.name)?.[0] ?? '';
  const stamp = at.toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.');
  return `Pasted image ${stamp}${extension}`;
}

/** The files a paste carries (none when it is only text); pasted images get a name that tells them apart. */
export function filesFromPaste(data: DataTransfer | null, at = new Date()): File[] {
  if (!data) return [];
  return [...data.files].map((file) =>
    file.name === 'image.png' || file.name === ''
      ? new File([file], pastedName(file, at), { type: file.type, lastModified: file.lastModified })
      : file,
  );
}

/** True while what is dragged over the page includes files (not a link or a text selection). */
export function dragHasFiles(data: DataTransfer | null): boolean {
  return data !== null && [...data.types].includes('Files');
}
