// Moved to features/identity (accounts, sessions, roles, unit access). Kept as a thin
// re-export so code written against the old path keeps compiling; import from identity.
export { LOGIN_PATH, staffLayout, type StaffUser } from '../features/identity/index';
