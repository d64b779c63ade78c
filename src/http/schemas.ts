// Route schemas compiled when a route first needs them (docs/decisions/170). Fastify
// compiles every route's validator (Ajv) and response serializer (fast-json-stringify) at
// start: generated code and closures for some 150 routes, most of them staff screens a
// public instance may never serve, held for the life of the process.
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Validator = ((data: unknown) => boolean | Promise<unknown>) & { errors?: unknown };
type Serializer = (data: unknown) => string;

/**
 * Fastify's own compilers (the same Ajv and fast-json-stringify options), each schema built
 * on its first call. `eager` builds them at once, as Fastify does: a test uses it to prove
 * every schema of the app compiles, so a broken one fails there and not on a visitor.
 */
export function schemaCompilers({ eager = false } = {}) {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    buildValidator(externalSchemas: unknown, options: unknown) {
      const compile = (validators as (e: unknown, o: unknown) => (route: unknown) => Validator)(
        externalSchemas,
        options,
      );
      return (route: unknown): Validator => {
        if (eager) return compile(route);
        let built: Validator | undefined;
        const validate: Validator = (data) => {
          built ??= compile(route);
          const result = built(data);
          // Fastify reads the errors from the function it was given.
          validate.errors = built.errors;
          return result;
        };
        return validate;
      };
    },
    buildSerializer(externalSchemas: unknown, options: unknown) {
      const compile = (serializers as (e: unknown, o: unknown) => (route: unknown) => Serializer)(
        externalSchemas,
        options,
      );
      return (route: unknown): Serializer => {
        if (eager) return compile(route);
        let built: Serializer | undefined;
        return (data) => (built ??= compile(route))(data);
      };
    },
  };
}
