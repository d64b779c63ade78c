// Uploaded files: where they are kept (local disk under UPLOADS_DIR), with paths checked
// so a stored name can never leave that folder.
export { createLocalStorage, UnsafePathError, type FileStorage } from './local-storage';
