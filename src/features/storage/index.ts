export { createLocalStorage, UnsafePathError, type FileStorage } from './local-storage';
