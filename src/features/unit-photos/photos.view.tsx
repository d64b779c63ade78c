// Staff screen: a unit's photos (up to 8), in order, each with its alt text.
import { Layout } from '../../views/layout';
import { ErrorSummary, FieldMessage, fieldAria } from '../../views/form';
import { ALT_MAX, MAX_UNIT_PHOTOS, photoUrl, photoWidths, type UnitPhoto } from './photos';
import type { PhotoErrors } from './photos.service';

export const photosPath = (unitId: number) => `/admin/conteudo/unidades/${unitId}/fotos`;

export interface PhotosPageProps {
  staff: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' };
  unit: { id: number; nome: string; ativo: number };
  photos: UnitPhoto[];
  errors?: PhotoErrors & { foto_id?: number };
  values?: { alt?: string };
  saved?: boolean;
}

export function PhotosPage({ staff, unit, photos, errors = {}, values = {}, saved }: PhotosPageProps) {
  const full = photos.length >= MAX_UNIT_PHOTOS;
  const uploadErrors = errors.foto_id ? {} : errors;
  const summary = [
    ...(uploadErrors.foto ? [{ field: 'foto', label: 'Foto', message: uploadErrors.foto }] : []),
    ...(uploadErrors.alt ? [{ field: 'alt', label: 'Descrição', message: uploadErrors.alt }] : []),
    ...(errors.foto_id && errors.alt
      ? [{ field: `alt-${errors.foto_id}`, label: 'Descrição', message: errors.alt }]
      : []),
  ];
  return (
    <Layout title={`Fotos · ${unit.nome}`} staff={staff}>
      <nav aria-label="Trilha de navegação" class="breadcrumbs">
        <ol>
          <li>
            <a href="/admin/conteudo">Conteúdo</a>
          </li>
          <li>
            <a href="/admin/conteudo/unidades">Unidades</a>
          </li>
          <li>
            <a href={`/admin/conteudo/unidades/${unit.id}`}>{unit.nome}</a>
          </li>
          <li aria-current="page">Fotos</li>
        </ol>
      </nav>
      <h1>Fotos da {unit.nome}</h1>
      <ErrorSummary
        errors={Object.fromEntries(summary.map((i) => [i.field, i.message]))}
        labels={Object.fromEntries(summary.map((i) => [i.field, i.label]))}
        idFor={(name) => name}
      />
      {saved ? (
        <p class="alert alert-ok" role="status">
          Alteração salva. O site mostra as fotos na ordem abaixo; a primeira é a capa.
        </p>
      ) : null}
      <p class="muted">
        Até {MAX_UNIT_PHOTOS} fotos (JPEG, PNG ou WebP, até 10 MB). Cada foto é regravada sem dados de localização ou da
        câmera e publicada em tamanhos para celular e computador. A primeira é a capa da unidade e aparece ao
        compartilhar o link.
      </p>

      {photos.length === 0 ? <p>Esta unidade ainda não tem fotos: o site mostra a imagem padrão da marca.</p> : null}
      <ol class="photo-admin-list">
        {photos.map((p, i) => {
          const thumb = photoWidths(p.largura)[0]!;
          const altError = errors.foto_id === p.id ? errors.alt : undefined;
          const action = (acao: PhotoAction, label: string, danger?: boolean) => (
            <ActionButton
              unitId={unit.id}
              photoId={p.id}
              csrf={staff.csrfToken}
              acao={acao}
              label={label}
              extra={`foto ${i + 1}`}
              danger={danger}
            />
          );
          return (
            <li class="card photo-admin" key={p.id}>
              <img
                src={photoUrl(unit.id, p.hash, thumb, 'jpg')}
                alt=""
                width={160}
                height={Math.round((p.altura * 160) / p.largura)}
                loading="lazy"
              />
              <div>
                <p>
                  <strong>{i === 0 ? 'Capa' : `Foto ${i + 1}`}</strong>{' '}
                  <span class="muted">
                    · {p.largura}×{p.altura}
                  </span>
                </p>
                <form method="post" action={`${photosPath(unit.id)}/${p.id}`} class="photo-alt-form">
                  <input type="hidden" name="csrf_token" value={staff.csrfToken} />
                  <input type="hidden" name="acao" value="alt" />
                  <label for={`alt-${p.id}`}>Descrição da foto {i + 1}</label>
                  <input
                    type="text"
                    id={`alt-${p.id}`}
                    name="alt"
                    maxLength={ALT_MAX}
                    value={altError ? (values.alt ?? p.alt) : p.alt}
                    {...fieldAria(`alt-${p.id}`, altError)}
                  />
                  <FieldMessage id={`alt-${p.id}`} message={altError} />
                  <button type="submit" class="secondary">
                    Salvar descrição<span class="visually-hidden"> da foto {i + 1}</span>
                  </button>
                </form>
                <div class="actions">
                  {i > 0 ? action('subir', 'Subir') : null}
                  {i < photos.length - 1 ? action('descer', 'Descer') : null}
                  {action('remover', 'Remover', true)}
                </div>
              </div>
            </li>
          );
        })}
      </ol>

      <section class="card" aria-labelledby="enviar-titulo">
        <h2 id="enviar-titulo">Enviar foto</h2>
        {full ? (
          <p>Esta unidade já tem {MAX_UNIT_PHOTOS} fotos. Remova uma para enviar outra.</p>
        ) : (
          <form method="post" action={photosPath(unit.id)} enctype="multipart/form-data" novalidate>
            <input type="hidden" name="csrf_token" value={staff.csrfToken} />
            <label for="foto">Foto</label>
            <input
              type="file"
              id="foto"
              name="foto"
              accept="image/jpeg,image/png,image/webp"
              required
              {...fieldAria('foto', uploadErrors.foto)}
            />
            <FieldMessage id="foto" message={uploadErrors.foto} />
            <label for="alt">Descrição (para quem não vê a foto)</label>
            <input
              type="text"
              id="alt"
              name="alt"
              maxLength={ALT_MAX}
              required
              value={uploadErrors.alt || uploadErrors.foto ? (values.alt ?? '') : ''}
              aria-invalid={uploadErrors.alt ? 'true' : undefined}
              aria-describedby={uploadErrors.alt ? 'alt-erro alt-dica' : 'alt-dica'}
            />
            <p class="hint" id="alt-dica">
              Ex.: “Sala de musculação com janelas amplas”. Não repita o nome da unidade.
            </p>
            <FieldMessage id="alt" message={uploadErrors.alt} />
            <p>
              <button type="submit">Enviar foto</button>
            </p>
          </form>
        )}
      </section>
      <p>
        <a href={`/Detalhes.php?id=${unit.id}`}>Ver a página da unidade</a>
      </p>
    </Layout>
  );
}

type PhotoAction = 'subir' | 'descer' | 'remover';

function ActionButton(props: {
  unitId: number;
  photoId: number;
  csrf: string;
  acao: PhotoAction;
  label: string;
  extra: string;
  danger?: boolean;
}) {
  return (
    <form method="post" action={`${photosPath(props.unitId)}/${props.photoId}`} class="inline">
      <input type="hidden" name="csrf_token" value={props.csrf} />
      <input type="hidden" name="acao" value={props.acao} />
      <button type="submit" class={props.danger ? 'danger' : 'secondary'}>
        {props.label}
        <span class="visually-hidden"> {props.extra}</span>
      </button>
    </form>
  );
}
