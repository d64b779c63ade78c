// The browser's twin of the server's newEnvioId(): 128 random bits, base64url (22 characters).
// crypto.getRandomValues also works where crypto.randomUUID does not (plain http).
export function newEnvioId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
