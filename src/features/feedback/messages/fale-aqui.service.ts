// Free-message rules (DESIGN "Free message"). Everything is checked and every photo
// re-encoded in memory BEFORE anything is written; then the files are stored as
// temporary, and one transaction stores the message, the image rows and the notification
// and makes the files final (docs/decisions/071). A failure removes the files; a crash
// leaves only temporary files, which the orphan sweep removes.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { nowIso } from '../../../db/index';
import type { Transactional } from '../../../db/transactional';
import {
  echoValue,
  type FieldErrors,
  keptEnvioId,
  multiLine,
  oneLine,
  readEnvioId,
  take,
  toId,
} from '../../../lib/form/index';
import { quoteCustomerText } from '../../../platform/mail/quote';
import { saoPauloYearMonth } from '../../../lib/time';
import { fingerprintOf, staleBefore, storeOnce } from '../../../platform/envio/index';
import type { FileStorage } from '../../../platform/storage/index';
import { emitWebhook } from '../../../platform/webhooks/webhooks.repository';
import { messageEventData } from './webhook-events';
import { enqueueMail, MAIL_PRIORITY, type OutgoingMail } from '../../../platform/mail/outbox.repository';
import type { ReceivedFile, UploadProblem } from '../../../platform/storage/multipart';
import type { FaleAquiRepository, NewMessageFile } from './fale-aqui.repository';
import { checkContact, readContactFields, type ContactValues } from './contact';
import {
  CONSENT_CHANNEL_FIELD,
  CONSENT_VERSION_FIELD,
  postedConsentVersion,
  readConsentChannel,
} from '../../privacy/consent';
import { recordConsent } from '../../privacy/consent.repository';
import {
  ImageRejectedError,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  MESSAGE_PHOTO_VARIANTS,
  processImage,
  type ProcessedImage,
} from './images';

export const MESSAGE_MAX = 3000;
export const NAME_MAX = 120;
export const UNIT_TEXT_MAX = 120;
export const ANONYMOUS_NAME = 'Anônimo';

/** a received photo: its label and its spool file (or its bytes, for callers outside HTTP) */
export type Upload = Pick<ReceivedFile, 'label'> & ({ path: string } | { data: Buffer });

export interface MessageValues extends ContactValues {
  nome_completo: string;
  unidade_id: string;
  /** free-text unit: no longer on the form, still accepted from old pages */
  unidade: string;
  mensagem: string;
  /** one per rendered form (docs/decisions/082) */
  envio_id: string;
}

export type MessageErrors = FieldErrors;

export type MessageResult =
  | { status: 'stored'; id: number }
  /** the same envio_id was already stored: nothing new (the first message's id, when known) */
  | { status: 'duplicate'; id: number | null }
  | { status: 'invalid'; httpStatus: 413 | 422; errors: MessageErrors; values: MessageValues };

// For re-rendering the form only: the rules read the fields through the form kit.
export function readMessageFields(fields: Record<string, unknown>): MessageValues {
  return {
    nome_completo: echoValue(fields.nome_completo, { max: NAME_MAX * 2 }),
    unidade_id: echoValue(fields.unidade_id, { max: 20 }).trim(),
    unidade: echoValue(fields.unidade, { max: UNIT_TEXT_MAX * 2 }),
    mensagem: echoValue(fields.mensagem, { max: MESSAGE_MAX * 2, multiLine: true }),
    envio_id: keptEnvioId(fields),
    ...readContactFields(fields),
  };
}

/** SHA-256 (hex) of the bytes the customer sent (before any re-encoding): part of the fingerprint. */
async function uploadHash(upload: Upload): Promise<string> {
  const hash = createHash('sha256');
  if ('data' in upload) return hash.update(upload.data).digest('hex');
  await pipeline(createReadStream(upload.path), hash);
  return hash.digest('hex');
}

/** "fale_aqui/2026/11/<32 hex>.jpg": year and month of São Paulo, a random name. */
export function storedPath(now: Date, ext: string): string {
  const [year, month] = saoPauloYearMonth(now);
  return `fale_aqui/${year}/${month}/${randomBytes(16).toString('hex')}.${ext}`;
}

export interface FaleAquiDeps {
  /** `transaction()` holds message + image rows + notification together */
  repo: Transactional<FaleAquiRepository>;
  storage: FileStorage;
  /** the one address that receives notifications, or null when mail is not configured */
  notificationEmail: string | null;
  /** for the staff links in webhook events */
  publicUrl: string;
}

export function notificationMail(
  id: number,
  m: {
    unidade: string;
    nomeCompleto: string;
    anonimo: boolean;
    mensagem: string;
    contatoEmail?: string | null;
    contatoTelefone?: string | null;
  },
  files: NewMessageFile[],
  to: string,
): OutgoingMail {
  const sender = m.anonimo ? 'Anônimo (não se identificou)' : m.nomeCompleto;
  const text = [
    'Nova mensagem recebida pelo formulário "Fale aqui".',
    '',
    // What the customer typed is quoted ("> " on every line): it can never pass for a
    // line of this template, whatever line breaks it holds.
    'Unidade:',
    quoteCustomerText(m.unidade),
    'Enviada por:',
    quoteCustomerText(sender),
    `Contato: ${
      [m.contatoEmail, m.contatoTelefone].filter(Boolean).join(' · ') || 'não deixou (não pode ser respondida)'
    }`,
    `Fotos: ${files.length ? `${files.length} (em anexo)` : 'nenhuma'}`,
    '',
    'Mensagem:',
    quoteCustomerText(m.mensagem),
    '',
    `Veja e marque como lida no painel da equipe: /admin/mensagens/${id}`,
  ].join('\n');
  return {
    to,
    // enqueueMail strips line breaks from the subject; the unit is bounded to 120 characters.
    subject: `Fale aqui: nova mensagem · ${m.unidade}`,
    text,
    attachments: files.map((f, i) => ({
      filename: `foto-${i + 1}.${f.caminho.split('.').pop()}`,
      path: f.caminho,
      contentType: f.tipo,
    })),
    origin: `fale_aqui:${id}`,
    // A message to the chain goes before bulk mail (lead notices, digests).
    priority: MAIL_PRIORITY.chain,
  };
}

export function createFaleAquiService(deps: FaleAquiDeps) {
  const { repo, storage } = deps;

  return {
    /** The units the form offers. */
    activeUnits() {
      return repo.activeUnits();
    },

    async submit(
      fields: Record<string, unknown>,
      uploads: Upload[],
      problem: UploadProblem | null = null,
    ): Promise<MessageResult> {
      const values = readMessageFields(fields);
      const envioId = readEnvioId(fields);
      const errors: MessageErrors = {};
      let httpStatus: 413 | 422 = 422;

      // Text fields go through the form kit (one-line name and unit, multi-line message).
      const nome = take(errors, 'nome_completo', oneLine(fields.nome_completo, { max: NAME_MAX }), '');

      let unit: { id: number; nome: string } | undefined;
      if (values.unidade_id !== '') {
        const unitId = toId(values.unidade_id);
        unit = unitId === null ? undefined : await repo.activeUnit(unitId);
        if (!unit) errors.unidade_id = 'Escolha uma unidade ativa da lista.';
      }
      // Without JavaScript the picker fills only unidade_id: the server fills the name.
      let unidade = take(errors, 'unidade', oneLine(fields.unidade, { max: UNIT_TEXT_MAX }), '');
      if (unidade === '' && unit) unidade = unit.nome;
      if (!errors.unidade_id && !errors.unidade && unidade === '')
        errors.unidade_id = 'Escolha a sua unidade na lista.';

      const { contact, errors: contactErrors } = checkContact(values);
      Object.assign(errors, contactErrors);

      const mensagem = take(
        errors,
        'mensagem',
        multiLine(fields.mensagem, { max: MESSAGE_MAX, required: 'Escreva sua mensagem.' }),
        '',
      );

      // The fingerprint (docs/decisions/183): the normalised fields and the photos' bytes.
      // A resend of a stored form (same envio_id, same content) is answered at once, its
      // photos never processed; a different message under a used envio_id goes on.
      let envio: { id: string; fingerprint: string } | null = null;
      if (envioId && !Object.keys(errors).length && problem === null && uploads.length <= MAX_IMAGES) {
        const fingerprint = fingerprintOf({
          unidadeId: unit?.id ?? null,
          unidade,
          nome,
          mensagem,
          contato: contact,
          fotos: await Promise.all(uploads.map(uploadHash)),
        });
        envio = { id: envioId, fingerprint };
        const first = await repo.storedEnvio(envioId, fingerprint, staleBefore(new Date()));
        if (first) return { status: 'duplicate', id: first.registro_id };
      }

      const images: { image: ProcessedImage; upload: Upload }[] = [];
      if (problem === 'fileTooLarge') {
        errors.arquivos =
          `Cada foto pode ter no máximo ${MAX_IMAGE_BYTES / 1024 / 1024} MB. Nada foi gravado: ` +
          `escolha uma foto menor.`;
        httpStatus = 413;
      } else if (problem === 'tooManyFiles' || uploads.length > MAX_IMAGES) {
        errors.arquivos = `Envie no máximo ${MAX_IMAGES} fotos.`;
      } else {
        const problemsByFile: string[] = [];
        for (const [i, upload] of uploads.entries()) {
          try {
            const [image] = await processImage('path' in upload ? upload.path : upload.data, {
              variants: MESSAGE_PHOTO_VARIANTS,
              filename: upload.label,
            });
            images.push({ image: image!, upload });
          } catch (err) {
            if (!(err instanceof ImageRejectedError)) throw err;
            const name = upload.label ?? `foto ${i + 1}`;
            problemsByFile.push(`${name}: ${err.message}`);
          }
        }
        if (problemsByFile.length) errors.arquivos = problemsByFile.join(' ');
      }

      if (Object.keys(errors).length) return { status: 'invalid', httpStatus, errors, values };

      const now = new Date();
      const criadoEm = nowIso(now);
      const files: NewMessageFile[] = images.map(({ image, upload }) => ({
        caminho: storedPath(now, image.ext),
        nomeOriginal: upload.label,
        tipo: image.mime,
        tamanho: image.size,
        largura: image.width,
        altura: image.height,
        sha256: image.sha256,
      }));
      const anonimo = nome === '';
      const message = {
        unidadeId: unit?.id ?? null,
        unidade,
        nomeCompleto: anonimo ? ANONYMOUS_NAME : nome,
        anonimo,
        mensagem,
        contatoEmail: contact.email,
        contatoTelefone: contact.telefone,
        aceiteContato: contact.aceite,
        criadoEm,
      };

      const keys = files.map((f) => f.caminho);
      try {
        for (const [i, f] of files.entries()) await storage.put(f.caminho, images[i]!.image.data, f.tipo);
        // Free the re-encoded bytes before the transaction: they are stored now.
        images.length = 0;
        const to = deps.notificationEmail;
        // The message, its image rows and the notification: all of them are kept or none is,
        // once per envio_id and content (a second POST of the same form stores nothing). The photos
        // become final in the same transaction, after their rows (decision 071).
        const stored = await deps.repo.transaction((tx, trx) =>
          storeOnce(trx, 'fale_aqui', envio, async () => {
            const newId = await tx.insertMessage(message, files);
            const fileIds = files.length ? (await tx.filesOf(newId)).map((f) => f.id) : [];
            await emitWebhook(trx, {
              type: 'mensagem.recebida',
              origin: `fale_aqui:${newId}`,
              at: now,
              data: messageEventData(
                {
                  id: newId,
                  unidade_id: message.unidadeId,
                  unidade: message.unidade,
                  nome_completo: message.nomeCompleto,
                  anonimo: message.anonimo,
                  mensagem: message.mensagem,
                  status: 'nova',
                  criado_em: message.criadoEm,
                  contato_email: message.contatoEmail,
                  contato_telefone: message.contatoTelefone,
                  aceite_contato: message.aceiteContato,
                },
                fileIds,
                deps.publicUrl,
              ),
            });
            // A contact comes with its consent: the proof is stored with the message.
            if (contact.aceite) {
              await recordConsent(trx, {
                finalidade: 'fale_aqui',
                versao: postedConsentVersion('fale_aqui', fields[CONSENT_VERSION_FIELD]),
                canal: readConsentChannel(fields[CONSENT_CHANNEL_FIELD]),
                email: contact.email,
                telefone: contact.telefone,
                tabela: 'fale_aqui',
                registroId: newId,
                aceitoEm: criadoEm,
              });
            }
            if (to) await enqueueMail(trx, notificationMail(newId, message, files, to));
            if (keys.length) await storage.commit(trx, keys);
            return newId;
          }),
        );
        // A racing second click stored nothing: its files go.
        if (stored.status === 'duplicate') await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
        return stored;
      } catch (err) {
        // Nothing of a failed request stays behind (temporary or final).
        await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
        throw err;
      }
    },
  };
}
