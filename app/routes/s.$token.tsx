/**
 * /s/{token} — the public viewer of a share link (ADR 233): no account needed. Each shared
 * deliverable with its preview, facts (kind, size, SHA-256, raster facts) and, when the link
 * allows it, its download and "Download all". Revoked or expired: a 410 page; unknown: 404.
 * With JavaScript, the Map view's map above them: the survey areas and the shared
 * rasters read through the link, distance and area measures. Never indexed, never sends
 * the link on as a referrer. Works without JavaScript (the previews stand in for the map).
 */
import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useParams } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import { LazyDeliverablesMap } from '#app/components/mapview/lazy-deliverables-map.tsx'
import { NoteList } from '#app/components/mapview/map-notes.tsx'
import { ContourDownloadForm } from '#app/components/mapview/terrain-section.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import {
  accuracyText,
  checkpointText,
  DELIVERABLE_KIND_LABELS,
  hasAccuracyStatement,
} from '#app/domain/deliverables/deliverable.ts'
import { openShareViewer, shareTokenOf, type ClosedShare } from '#app/domain/sharing/share-access.server.ts'
import { SHARE_MESSAGES } from '#app/domain/sharing/share-rules.ts'
import type { ShareViewerData } from '#app/domain/sharing/share-viewer.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { formatFileSize, formatHectares, formatNumber } from '#app/lib/format/numbers.ts'
import { clientIpOf } from '#app/lib/http/context.ts'

export const meta: MetaFunction = () => [
  { title: 'Shared survey data · Kestrel Aerial Survey' },
  { name: 'robots', content: 'noindex, nofollow' },
  { name: 'referrer', content: 'no-referrer' },
]

export { deliverablesMapLinks as links } from '#app/components/mapview/lazy-deliverables-map.tsx'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await openShareViewer(shareTokenOf(request, params.token), clientIpOf(context), {
    countOpen: request.method === 'GET',
  })
  return json(page.body, { status: page.status, headers: page.headers })
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const CLOSED_TITLES: Record<ClosedShare['state'], string> = {
  unknown: 'Share link not found',
  gone: 'This share link is no longer available',
  limited: 'Too many attempts',
}

export default function SharedDeliverablesPage() {
  const data = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <main
        className={`mx-auto px-4 py-8 sm:px-6 sm:py-10 ${data.state === 'open' && data.layers.length ? 'max-w-6xl' : 'max-w-4xl'}`}
      >
        {data.state === 'open' ? (
          <SharedDeliverables data={data} />
        ) : (
          <div className="mx-auto max-w-xl">
            <PageCard
              title={CLOSED_TITLES[data.state]}
              description={data.message}
              icon={data.state === 'gone' ? 'cancelled' : 'error'}
              testProps={{ 'data-testid': 'share-closed', 'data-state': data.state }}
            />
          </div>
        )}
      </main>
    </AppShell>
  )
}

function SharedDeliverables({ data }: { data: ShareViewerData & { tileUrl: string } }) {
  const onMap = new Set(data.layers.map((l) => l.id))
  const { token } = useParams()
  const hasThreeD = data.files.some((f) => f.kind === 'point_cloud' || f.kind === 'model_3d')
  const contourModels = data.files.flatMap((f) =>
    f.contoursUrl ? [{ id: f.id, fileName: f.name, action: f.contoursUrl }] : [],
  )
  return (
    <div className="space-y-6" data-testid="share-viewer">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium uppercase tracking-wide text-ink-500">Shared survey data</p>
          <h1 className="break-words text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
            {data.projectName}
          </h1>
          <p className="mt-1 text-sm text-ink-600">
            {data.allowDownload ? 'View and download' : 'View only'} · link valid until{' '}
            {formatDate(data.expiresAt)}
          </p>
          {data.allowDownload ? null : (
            <p className="mt-1 text-xs text-ink-500" data-testid="share-view-only-note">
              {SHARE_MESSAGES.viewOnlyGets}
            </p>
          )}
        </div>
        {data.downloadAllUrl ? (
          <a
            href={data.downloadAllUrl}
            className="btn-primary shrink-0"
            download
            data-testid="share-download-all"
          >
            Download all (ZIP)
          </a>
        ) : null}
      </header>
      {hasThreeD ? (
        // A document load: only the 3D page's own Content-Security-Policy lets its WebAssembly run.
        <Link
          to={`/s/${token}/3d`}
          reloadDocument
          className="btn-secondary btn-sm"
          data-testid="share-three-d-link"
        >
          3D view
        </Link>
      ) : null}
      <LazyDeliverablesMap
        tileUrl={data.tileUrl}
        projectId={null}
        areas={data.areas}
        layers={data.layers}
        notes={data.notes}
      />
      {data.notes.length ? (
        <section aria-label="Notes" className="card p-4">
          <NoteList notes={data.notes} />
        </section>
      ) : null}
      <ul className="space-y-4">
        {data.files.map((file) => (
          <li key={file.id} className="card overflow-hidden" data-testid={`shared-file-${file.id}`}>
            {file.previewUrl ? (
              <PreviewImage url={file.previewUrl} name={file.name} onMap={onMap.has(file.id)} />
            ) : null}
            <div className="p-4 sm:p-5">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h2 className="min-w-0 break-words text-base font-semibold text-ink-950">{file.name}</h2>
                <div className="flex shrink-0 gap-2">
                  {file.readUrl ? (
                    <a
                      href={file.readUrl}
                      className="btn-secondary btn-sm"
                      target="_blank"
                      rel="noreferrer noopener"
                      data-testid="share-read-pdf"
                    >
                      Read
                    </a>
                  ) : null}
                  {file.downloadUrl ? (
                    <a href={file.downloadUrl} className="btn-secondary btn-sm" download={file.name}>
                      Download
                    </a>
                  ) : null}
                </div>
              </div>
              <dl className="mt-2 divide-y divide-ink-100">
                <DetailRow label="Kind">{DELIVERABLE_KIND_LABELS[file.kind]}</DetailRow>
                <DetailRow label="Size">{formatFileSize(file.sizeBytes)}</DetailRow>
                <DetailRow label="SHA-256">
                  <span className="break-all font-mono text-xs">{file.sha256 ?? '—'}</span>
                </DetailRow>
                {file.raster ? (
                  <>
                    <DetailRow label="Coordinate system">
                      {file.raster.epsg ? `EPSG:${file.raster.epsg}` : '—'}
                    </DetailRow>
                    <DetailRow label="Pixels">
                      {formatNumber(file.raster.widthPx)} × {formatNumber(file.raster.heightPx)},{' '}
                      {file.raster.bandCount} {file.raster.bandCount === 1 ? 'band' : 'bands'} (
                      {file.raster.dataType})
                    </DetailRow>
                    {file.raster.gsdCm !== null ? (
                      <DetailRow label="Ground sample distance">
                        {formatNumber(file.raster.gsdCm, 1)} cm/px
                      </DetailRow>
                    ) : null}
                    <DetailRow label="Footprint">
                      {formatHectares(file.raster.footprintHa * 10_000)}
                    </DetailRow>
                  </>
                ) : null}
                {hasAccuracyStatement(file.kind) ? (
                  <DetailRow label="Accuracy">
                    <span data-testid="share-accuracy">{accuracyText(file.accuracy)}</span>
                  </DetailRow>
                ) : null}
                {file.checkpoints ? (
                  <DetailRow label="Checked" layout="below">
                    <span data-testid="share-checkpoints">{checkpointText(file.checkpoints)}</span>{' '}
                    {file.accuracyPdfUrl ? (
                      <a href={file.accuracyPdfUrl} className="link" download>
                        Accuracy report (PDF)
                      </a>
                    ) : null}
                  </DetailRow>
                ) : null}
              </dl>
            </div>
          </li>
        ))}
      </ul>
      {contourModels.length ? <ContourDownloadForm models={contourModels} /> : null}
      <p className="text-xs text-ink-500">
        Shared through Kestrel Aerial Survey. Check a download against its SHA-256 with{' '}
        <code className="font-mono">sha256sum</code>.
      </p>
    </div>
  )
}

/** A raster on the map shows its preview only without JavaScript (the map draws it otherwise). */
function PreviewImage({ url, name, onMap }: { url: string; name: string; onMap: boolean }) {
  const image = (
    <img
      src={url}
      alt={`Preview of ${name}`}
      className="max-h-[28rem] w-full bg-ink-100 object-contain"
      loading="lazy"
    />
  )
  return onMap ? <noscript>{image}</noscript> : image
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
