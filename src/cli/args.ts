// node:util parseArgs explains a bad flag in English; the commands answer in pt-BR.

/** The pt-BR message for an error thrown by parseArgs (the flag named as typed). */
export function flagErrorMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const flag = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Opção desconhecida: ${flag ?? e.message}.`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `A opção ${flag ?? ''} precisa de um valor.`.replace('  ', ' ');
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Argumento inesperado: ${/'([^']+)'/.exec(e.message ?? '')?.[1] ?? e.message}.`;
    default:
      return e.message ?? String(err);
  }
}
