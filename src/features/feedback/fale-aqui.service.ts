// Free-message rules (DESIGN "Free message"). Everything is checked and every photo
// re-encoded in memory BEFORE anything is written; then the files are stored as
// temporary, and one transaction stores the message, the image rows and the notification
// and makes the files final (docs/decisions/071). A failure removes the files; a crash
// leaves only temporary files, which the orphan sweep removes.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { cleanText } from '../../lib/text';
import type { FileStorage } from '../storage/index';
import { enqueueMail, MAIL_PRIORITY, type OutgoingMail } from '../mail/outbox.repository';
import type { ReceivedFile, UploadProblem } from '../storage/multipart';
import { createFaleAquiRepository, type FaleAquiRepository, type NewMessageFile } from './fale-aqui.repository';
import { checkContact, readContactFields, type ContactValues } from './contact';
import { ImageRejectedError, MAX_IMAGE_BYTES, MAX_IMAGES, MESSAGE_PHOTO_VARIANTS, processImage, type ProcessedImage } from './images';

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
}

export type MessageErrors = Record<string, string>;

export type MessageResult =
  | { status: 'stored'; id: number }
  | { status: 'invalid'; httpStatus: 413 | 422; errors: MessageErrors; values: MessageValues };

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const length = (s: string) => [...s].length;

export function readMessageFields(fields: Record<string, unknown>): MessageValues {
  return {
    nome_completo: str(fields.nome_completo),
    unidade_id: str(fields.unidade_id).trim(),
    unidade: str(fields.unidade),
    mensagem: str(fields.mensagem),
    ...readContactFields(fields),
  };
}

/** "fale_aqui/2026/11/<32 hex>.jpg": year and month of São Paulo, a random name. */
export function storedPath(now: Date, ext: string): string {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' })
    .format(now)
    .split('-');
  return `fale_aqui/${year}/${month}/${randomBytes(16).toString('hex')}.${ext}`;
}

export interface FaleAquiDeps {
  /** opens the transaction of message + image rows + notification */
  db: Kysely<Database>;
  repo: FaleAquiRepository;
  storage: FileStorage;
  /** the one address that receives notifications, or null when mail is not configured */
  notificationEmail: string | null;
}

export function notificationMail(
  id: number,
  m: { unidade: string; nomeCompleto: string; anonimo: boolean; mensagem: string; contatoEmail?: string | null; contatoTelefone?: string | null },
  files: NewMessageFile[],
  to: string,
): OutgoingMail {
  const sender = m.anonimo ? 'Anônimo (não se identificou)' : m.nomeCompleto;
  const text = [
    'Nova mensagem recebida pelo formulário "Fale aqui".',
    '',
    `Unidade: ${m.unidade}`,
    `Enviada por: ${sender}`,
    `Contato: ${[m.contatoEmail, m.contatoTelefone].filter(Boolean).join(' · ') || 'não deixou (não pode ser respondida)'}`,
    `Fotos: ${files.length ? `${files.length} (em anexo)` : 'nenhuma'}`,
    '',
    'Mensagem:',
    m.mensagem,
    '',
    `Veja e marque como lida no painel da equipe: /admin/mensagens/${id}`,
  ].join('\n');
  return {
    to,
    // enqueueMail strips line breaks from the subject; the unit is bounded to 120 characters.
    subject: `Fale aqui: nova mensagem · ${m.unidade}`,
    text,
    attachments: files.map((f, i) => ({ filename: `foto-${i + 1}.${f.caminho.split('.').pop()}`, path: f.caminho, contentType: f.tipo })),
    origin: `fale_aqui:${id}`,
    // A message to the chain goes before bulk mail (lead notices, digests).
    priority: MAIL_PRIORITY.chain,
  };
}

export function createFaleAquiService(deps: FaleAquiDeps) {
  const { repo, storage } = deps;

  return {
    repo,

    async submit(fields: Record<string, unknown>, uploads: Upload[], problem: UploadProblem | null = null): Promise<MessageResult> {
      const values = readMessageFields(fields);
      const errors: MessageErrors = {};
      let httpStatus: 413 | 422 = 422;

      const nome = cleanText(values.nome_completo);
      if (length(nome) > NAME_MAX) errors.nome_completo = `O nome pode ter no máximo ${NAME_MAX} caracteres.`;

      let unit: { id: number; nome: string } | undefined;
      if (values.unidade_id !== '') {
        unit = /^\d{1,9}$/.test(values.unidade_id) ? await repo.activeUnit(Number(values.unidade_id)) : undefined;
        if (!unit) errors.unidade_id = 'Escolha uma unidade ativa da lista.';
      }
      // Without JavaScript the picker fills only unidade_id: the server fills the name.
      let unidade = cleanText(values.unidade);
      if (unidade === '' && unit) unidade = unit.nome;
      if (!errors.unidade_id) {
        if (unidade === '') errors.unidade_id = 'Escolha a sua unidade na lista.';
        else if (length(unidade) > UNIT_TEXT_MAX) errors.unidade = `O nome da unidade pode ter no máximo ${UNIT_TEXT_MAX} caracteres.`;
      }

      const { contact, errors: contactErrors } = checkContact(values);
      Object.assign(errors, contactErrors);

      const mensagem = cleanText(values.mensagem);
      if (mensagem === '') errors.mensagem = 'Escreva sua mensagem.';
      else if (length(mensagem) > MESSAGE_MAX) {
        errors.mensagem = `A mensagem pode ter no máximo ${MESSAGE_MAX} caracteres (a sua tem ${length(mensagem)}).`;
      }

      const images: { image: ProcessedImage; upload: Upload }[] = [];
      if (problem === 'fileTooLarge') {
        errors.arquivos = `Cada foto pode ter no máximo ${MAX_IMAGE_BYTES / 1024 / 1024} MB. Nada foi gravado: escolha uma foto menor.`;
        httpStatus = 413;
      } else if (problem === 'tooManyFiles' || uploads.length > MAX_IMAGES) {
        errors.arquivos = `Envie no máximo ${MAX_IMAGES} fotos.`;
      } else {
        const problemsByFile: string[] = [];
        for (const [i, upload] of uploads.entries()) {
          try {
            const [image] = await processImage('path' in upload ? upload.path : upload.data, { variants: MESSAGE_PHOTO_VARIANTS, filename: upload.label });
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
        // The message, its image rows and the notification: all of them are kept or none is.
        // The photos become final in the same transaction, after their rows (decision 071).
        const id = await deps.db.transaction().execute(async (trx) => {
          const newId = await createFaleAquiRepository(trx).insertMessage(message, files);
          if (to) await enqueueMail(trx, notificationMail(newId, message, files, to));
          if (keys.length) await storage.commit(trx, keys);
          return newId;
        });
        return { status: 'stored', id };
      } catch (err) {
        // Nothing of a failed request stays behind (temporary or final).
        await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
        throw err;
      }
    },
  };
}

export type FaleAquiService = ReturnType<typeof createFaleAquiService>;
