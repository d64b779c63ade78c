// Every command reads its flags here: node:util parseArgs explains a bad flag in English, and
// the commands answer in pt-BR.
import { type ParseArgsConfig, parseArgs } from 'node:util';

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

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The command's flags. A flag it does not know, or one without its value, prints the pt-BR
 * message and the usage and exits with 1.
 */
export function readFlags<const O extends Options>(usage: string, options: O) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    console.error(`${flagErrorMessage(err)}\n\n${usage}`);
    process.exit(1);
  }
}
