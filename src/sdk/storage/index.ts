/**
 * The storage client: the modular API of firebase/storage (refs, upload tasks, download URLs, metadata,
 * list) over the protocol in docs/storage-protocol.md. Runs in browsers and in Node (fetch + AbortController).
 */
export { createStorage, Storage, type StorageOptions, type TokenProvider } from './service';
export { ref, child, StorageReference } from './reference';
export {
  uploadBytes,
  uploadBytesResumable,
  getDownloadURL,
  getMetadata,
  updateMetadata,
  deleteObject,
  list,
  listAll,
  type UploadResult,
  type ListOptions,
  type ListResult,
} from './operations';
export { UploadTask, type UploadTaskSnapshot, type TaskObserver, type TaskState } from './upload-task';
export { StorageError, isStorageError, type StorageErrorCode } from './storage-error';
export type { FullMetadata, SettableMetadata, UploadMetadata } from './metadata';
export type { UploadData } from './upload-data';
export type { SleepFunction } from './backoff';
