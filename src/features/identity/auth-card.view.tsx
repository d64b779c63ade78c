// The frame of the staff sign-in pages (login, "Esqueci minha senha"): one card with its
// title and alerts, and the e-mail and password fields they share (the form kit's TextField).
import type { ComponentChildren } from 'preact';
import { Layout } from '../../views/layout';
import { TextField } from '../../views/form';

export function AuthCard({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <Layout title={title}>
      <section class="card login-card">
        <h1>{title}</h1>
        {children}
      </section>
    </Layout>
  );
}

/** A general message above the form (wrong credentials, a link that failed): announced at once. */
export function AuthAlert({ message, id }: { message?: string | null; id?: string }) {
  return message ? (
    <p class="alert alert-error" role="alert" id={id}>
      {message}
    </p>
  ) : null;
}

export function EmailField({ value, error }: { value?: string; error?: string | null }) {
  return (
    <TextField
      name="email"
      label="E-mail"
      type="email"
      autocomplete="username"
      required
      maxLength={254}
      value={value}
      error={error ?? undefined}
    />
  );
}

/** A password field: never echoes a value back; `new-password` ones carry the minimum length. */
export function PasswordField(p: {
  name: string;
  label: string;
  error?: string;
  autocomplete: 'current-password' | 'new-password';
  minLength?: number;
}) {
  return (
    <TextField
      name={p.name}
      label={p.label}
      type="password"
      autocomplete={p.autocomplete}
      required
      minLength={p.minLength}
      maxLength={256}
      error={p.error}
    />
  );
}
