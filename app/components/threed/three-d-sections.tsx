/**
 * The body of both 3D pages (the project's and a share link's): the canvas with JavaScript, and
 * what shows without it (and beside the canvas with it): the still image, each point cloud's
 * facts (points, bounds, CRS, density; a thinned copy says so) and the downloads.
 */
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { DELIVERABLE_KIND_LABELS } from '#app/domain/deliverables/deliverable.ts'
import type { ThreeDViewData } from '#app/domain/deliverables/three-d-view.server.ts'
import {
  thinnedLabel,
  THREE_D_MESSAGES,
  type CloudFacts,
  type ThreeDSource,
} from '#app/domain/threed/three-d.ts'
import { formatFileSize, formatNumber } from '#app/lib/format/numbers.ts'
import type { ReactNode } from 'react'

import { LazyThreeDView } from './lazy-three-d-view.tsx'

type Data = Pick<ThreeDViewData, 'project' | 'sources' | 'pending' | 'withheld' | 'stillUrl' | 'downloads'>

/** The page's main column: its heading, then the view. */
export function ThreeDPageBody({
  header,
  data,
  stillUploadUrl,
}: {
  header: ReactNode
  data: Data
  /** Where the first browser that draws the view leaves the still image (null: not this page). */
  stillUploadUrl: string | null
}) {
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
      {header}
      <LazyThreeDView sources={data.sources} stillUploadUrl={stillUploadUrl} />
      <ThreeDStill data={data} />
      <ThreeDFacts data={data} />
      <ThreeDDownloads data={data} />
    </main>
  )
}

/**
 * The still image, for browsers without JavaScript (the canvas takes its place with it); always
 * shown when models are withheld from the canvas (a view-only link).
 */
function ThreeDStill({ data }: { data: Data }) {
  if (!data.sources.length && !data.withheld) return null
  const still = (
    <section className="card p-4 sm:p-6" data-testid="three-d-still">
      {data.stillUrl ? (
        <img src={data.stillUrl} alt={`3D view of ${data.project.name}`} className="w-full rounded-lg" />
      ) : (
        <p className="text-sm text-ink-600">{THREE_D_MESSAGES.noStill}</p>
      )}
    </section>
  )
  return data.withheld ? still : <noscript>{still}</noscript>
}

function coordinates(values: [number, number, number]) {
  return values.map((v) => formatNumber(v, 2)).join('; ')
}

function CloudFactsList({ facts }: { facts: CloudFacts }) {
  return (
    <dl className="mt-2 divide-y divide-ink-100" data-testid="cloud-facts">
      <DetailRow label="Points">{formatNumber(facts.pointCount)}</DetailRow>
      {facts.thinned ? (
        <DetailRow label="Shown">
          {thinnedLabel(formatNumber(facts.thinned.kept), formatNumber(facts.thinned.total))}
        </DetailRow>
      ) : null}
      <DetailRow label="Lowest corner (x; y; z)">
        <span data-format="coordinates">{coordinates(facts.min)}</span>
      </DetailRow>
      <DetailRow label="Highest corner (x; y; z)">
        <span data-format="coordinates">{coordinates(facts.max)}</span>
      </DetailRow>
      <DetailRow label="Coordinate system">{facts.crs ?? 'Not stated in the file'}</DetailRow>
      <DetailRow label="Density">
        {facts.densityPerM2 === null ? '—' : `${formatNumber(facts.densityPerM2, 1)} points per m²`}
      </DetailRow>
      <DetailRow label="Streamed as">
        {facts.copc ? 'COPC (octree, read as needed)' : 'Viewing copy'}
      </DetailRow>
    </dl>
  )
}

function titleOf(source: ThreeDSource) {
  return source.type === 'tiles' ? '3D Tiles (textured model)' : source.fileName
}

function ThreeDFacts({ data }: { data: Data }) {
  return (
    <section aria-labelledby="three-d-facts" className="card p-4 sm:p-6">
      <h2 id="three-d-facts" className="mb-3 text-lg font-semibold text-ink-950">
        What the view shows
      </h2>
      {data.sources.length ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {data.sources.map((source) => (
            <li
              key={source.url}
              className="rounded-xl border border-ink-100 p-4"
              data-testid="three-d-source"
            >
              <h3 className="break-words font-semibold text-ink-950">{titleOf(source)}</h3>
              {'facts' in source ? (
                <CloudFactsList facts={source.facts} />
              ) : (
                <p className="mt-1 text-sm text-ink-600">Textured 3D model</p>
              )}
            </li>
          ))}
        </ul>
      ) : data.withheld ? null : (
        <p className="text-sm text-ink-600">
          {data.pending ? THREE_D_MESSAGES.preparing : THREE_D_MESSAGES.none}
        </p>
      )}
      {data.withheld ? (
        <p className="mt-3 text-sm text-ink-600" data-testid="three-d-withheld">
          {THREE_D_MESSAGES.modelsWithheld}
        </p>
      ) : null}
      {data.sources.length && data.pending ? (
        <p className="mt-3 text-sm text-ink-600">{THREE_D_MESSAGES.preparing}</p>
      ) : null}
    </section>
  )
}

function ThreeDDownloads({ data }: { data: Data }) {
  if (!data.downloads.length) return null
  return (
    <section aria-labelledby="three-d-downloads" className="card p-4 sm:p-6">
      <h2 id="three-d-downloads" className="mb-3 text-lg font-semibold text-ink-950">
        Downloads
      </h2>
      <ul className="divide-y divide-ink-100" data-testid="three-d-downloads">
        {data.downloads.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 break-words">
              {d.fileName}{' '}
              <span className="text-ink-500">
                ({DELIVERABLE_KIND_LABELS[d.kind]}, {formatFileSize(d.sizeBytes)})
              </span>
            </span>
            {d.url ? (
              <a href={d.url} className="btn-secondary btn-sm" download>
                Download
              </a>
            ) : (
              <span className="text-ink-500">View only</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
