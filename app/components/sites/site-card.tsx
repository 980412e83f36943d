/**
 * One site as the client sees it: the latest thumbnail, the schedule, its surveys in
 * date order with status and date, and links to each project, the site page and its Map view.
 * The dashboard's Sites tab lists these; the site page shows one without its own "Manage" link.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { cn } from '#app/components/ui/cn.ts'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { repeatLabel } from '#app/domain/sites/site-schedule.ts'
import type { SiteCard as SiteCardData } from '#app/domain/sites/sites.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'

type Site = SerializeFrom<SiteCardData>

const DATE_WORDS = {
  flown: 'Flown',
  scheduled: 'Scheduled for',
  preferred: 'Preferred date',
  ordered: 'Ordered',
} as const

export function siteScheduleLine(site: Pick<Site, 'repeatEvery' | 'nextDueOn'>) {
  return site.repeatEvery && site.nextDueOn
    ? `Next survey due ${formatDate(site.nextDueOn)}`
    : 'No repeat survey scheduled'
}

export function RepeatBadge({ every }: { every: Site['repeatEvery'] }) {
  return (
    <span
      className={cn('badge shrink-0', every ? 'bg-sky-100 text-sky-800' : 'bg-ink-100 text-ink-700')}
      data-testid="repeat-badge"
    >
      {repeatLabel(every)}
    </span>
  )
}

export function SiteSurveyList({ surveys }: { surveys: Site['surveys'] }) {
  return (
    <ol className="divide-y divide-ink-100" aria-label="Surveys, oldest first" data-testid="site-surveys">
      {surveys.map((survey) => (
        <li
          key={survey.id}
          className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 text-sm"
        >
          <div className="min-w-0">
            <Link to={`/dashboard?tab=projects&view=${survey.id}`} className="link break-words font-medium">
              {survey.name}
            </Link>
            <p className="text-xs text-ink-500">
              {DATE_WORDS[survey.date.kind]} {formatDate(survey.date.on, { short: true })}
            </p>
          </div>
          <StatusBadge status={survey.status} />
        </li>
      ))}
    </ol>
  )
}

export function SiteThumbnail({
  thumbnail,
  className,
}: {
  thumbnail: Site['thumbnail']
  className?: string
}) {
  return (
    <div className={cn('flex items-center justify-center overflow-hidden bg-ink-100', className)}>
      {thumbnail ? (
        <img src={thumbnail.url} alt={thumbnail.alt} className="h-full w-full object-cover" loading="lazy" />
      ) : (
        <p className="p-4 text-center text-xs text-ink-500">No imagery yet</p>
      )}
    </div>
  )
}

export function SiteCard({ site }: { site: Site }) {
  return (
    <li
      className="card flex min-w-0 flex-col overflow-hidden sm:flex-row"
      data-testid={`site-card-${site.id}`}
    >
      <SiteThumbnail
        thumbnail={site.thumbnail}
        className="aspect-[4/3] w-full sm:aspect-auto sm:w-48 sm:shrink-0"
      />
      <div className="min-w-0 flex-1 p-5">
        <div className="flex items-start justify-between gap-3">
          <h3 className="min-w-0 break-words text-base font-semibold text-ink-950">{site.name}</h3>
          <RepeatBadge every={site.repeatEvery} />
        </div>
        <p className="mt-0.5 text-sm text-ink-600" data-testid="site-next-due">
          {siteScheduleLine(site)}
        </p>
        <div className="mt-3">
          <SiteSurveyList surveys={site.surveys} />
        </div>
        <div className="mt-4 flex flex-wrap gap-2 border-t border-ink-100 pt-4">
          <Link to={`/sites/${site.id}`} className="btn-primary btn-sm">
            Manage site
          </Link>
          <Link to={`/sites/${site.id}/map`} className="btn-secondary btn-sm">
            Map view
          </Link>
        </div>
      </div>
    </li>
  )
}
