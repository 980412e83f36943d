/** My Sites: the client's sites, each with its surveys over time and its repeat schedule. */
import type { SerializeFrom } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { SiteCard } from '#app/components/sites/site-card.tsx'
import type { SiteCard as SiteCardData } from '#app/domain/sites/sites.server.ts'

export function SitesTab({ sites }: { sites: Array<SerializeFrom<SiteCardData>> }) {
  return (
    <section className="space-y-4" aria-labelledby="sites-heading">
      <div>
        <h2 id="sites-heading" className="text-lg font-semibold text-ink-950">
          My Sites
        </h2>
        <p className="text-sm text-ink-500">
          Projects flown over the same areas form a site: follow it over time and repeat it on a schedule.
        </p>
      </div>
      {sites.length === 0 ? (
        <div className="card p-8 text-center">
          <p className="text-sm text-ink-600">
            No sites yet. Fly a completed project again and it becomes a site.{' '}
            <Link to="?tab=projects" className="link">
              Go to your projects
            </Link>
          </p>
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2" data-testid="site-list">
          {sites.map((site) => (
            <SiteCard key={site.id} site={site} />
          ))}
        </ul>
      )}
    </section>
  )
}
