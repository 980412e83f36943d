import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import type { ProcessingSummary } from '#app/components/processing/processing-status-line.tsx'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks, useActiveTab } from '#app/components/ui/tabs.tsx'
import type { ProjectCard } from '#app/domain/dashboard/project-card.server.ts'
import type { Deliverable } from '#app/domain/deliverables/deliverable.ts'
import type { FileView } from '#app/domain/files/file-view.ts'
import type { SharePanelData } from '#app/domain/sharing/share-panel.server.ts'
import type { SiteCard } from '#app/domain/sites/sites.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'

import { CreateProjectTab, type PlaceSearchResult } from './client/create-project-tab.tsx'
import { InvoicesTab } from './client/invoices-tab.tsx'
import { ProfileTab } from './client/profile-tab.tsx'
import { ProjectsTab } from './client/projects-tab.tsx'
import { SitesTab } from './client/sites-tab.tsx'
import { type ProfileValues } from './profile-form.tsx'
import { WelcomeBanner } from './welcome-banner.tsx'

const CLIENT_TABS = [
  { id: 'create', label: 'Create Project' },
  { id: 'projects', label: 'My Projects' },
  { id: 'sites', label: 'My Sites' },
  { id: 'invoices', label: 'Invoices' },
  { id: 'profile', label: 'Profile' },
] as const

export interface ClientStats {
  activeProjects: number
  pendingProjects: number
  totalSpent: number
}

export function ClientDashboard({
  profile,
  stats,
  welcome,
  projects,
  files = {},
  deliverables = {},
  shares = {},
  processing = {},
  sites = [],
  placeSearch,
}: {
  profile: ProfileValues
  stats: ClientStats
  welcome: string | null
  projects: ProjectCard[]
  /** Each project's files the client may see, by project id. */
  files?: Record<number, FileView[]>
  /** Completed projects' deliverables (kind, SHA-256, viewing copy), by project id. */
  deliverables?: Record<number, Deliverable[]>
  /** The Share panel of each completed project, by project id. */
  shares?: Record<number, SharePanelData>
  /** Each project's latest processing job. */
  processing?: Record<number, ProcessingSummary>
  /** The client's sites (loaded on the Sites tab only). */
  sites?: SiteCard[]
  placeSearch: PlaceSearchResult | null
}) {
  const tab = useActiveTab(CLIENT_TABS, 'create')
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <WelcomeBanner message={welcome} />
      <DashboardHeading
        title={`Hello, ${profile.firstName}`}
        subtitle="Plan a survey, follow your projects and download your invoices."
      />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard label="Active Projects" value={stats.activeProjects} hint="Currently in progress" />
        <StatCard label="Pending Projects" value={stats.pendingProjects} hint="Awaiting payment or a pilot" />
        <StatCard
          label="Total Spent"
          value={formatRand(stats.totalSpent)}
          hint="This year"
          className="col-span-2 sm:col-span-1"
        />
      </div>
      <TabLinks tabs={CLIENT_TABS} active={tab} label="Client dashboard sections" />
      {tab === 'profile' ? <ProfileTab profile={profile} /> : null}
      {tab === 'create' ? <CreateProjectTab placeSearch={placeSearch} /> : null}
      {tab === 'projects' ? (
        <ProjectsTab
          projects={projects}
          files={files}
          deliverables={deliverables}
          shares={shares}
          processing={processing}
        />
      ) : null}
      {tab === 'sites' ? <SitesTab sites={sites} /> : null}
      {tab === 'invoices' ? <InvoicesTab /> : null}
    </main>
  )
}
