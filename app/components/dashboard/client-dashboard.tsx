import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { formatRand } from '#app/components/ui/money.ts'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks, useActiveTab } from '#app/components/ui/tabs.tsx'
import { ProfileForm, type ProfileValues } from './profile-form.tsx'
import { WelcomeBanner } from './welcome-banner.tsx'

export const CLIENT_TABS = [
  { id: 'create', label: 'Create Project' },
  { id: 'projects', label: 'My Projects' },
  { id: 'invoices', label: 'Invoices' },
  { id: 'profile', label: 'Profile' },
] as const

export interface ClientStats {
  activeProjects: number
  pendingProjects: number
  totalSpent: number
}

export function ClientDashboard({ profile, stats, welcome }: { profile: ProfileValues; stats: ClientStats; welcome: string | null }) {
  const tab = useActiveTab(CLIENT_TABS, 'create')
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <WelcomeBanner message={welcome} />
      <DashboardHeading title={`Hello, ${profile.firstName}`} subtitle="Plan a survey, follow your projects and download your invoices." />
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Active Projects" value={stats.activeProjects} hint="Currently in progress" />
        <StatCard label="Pending Projects" value={stats.pendingProjects} hint="Awaiting pilot assignment" />
        <StatCard label="Total Spent" value={formatRand(stats.totalSpent)} hint="This year" />
      </div>
      <TabLinks tabs={CLIENT_TABS} active={tab} label="Client dashboard sections" />
      {tab === 'profile' ? <ProfileForm profile={profile} /> : null}
      {tab === 'create' ? (
        <section className="card p-6" aria-labelledby="create-heading">
          <h2 id="create-heading" className="text-lg font-semibold">Create Project</h2>
          <p className="mt-1 text-sm text-ink-500">Project creation arrives with the survey planner.</p>
        </section>
      ) : null}
      {tab === 'projects' ? (
        <section className="card p-6" aria-labelledby="projects-heading">
          <h2 id="projects-heading" className="text-lg font-semibold">My Projects</h2>
          <p className="mt-3 text-sm text-ink-500">No projects yet. Create your first project above!</p>
        </section>
      ) : null}
      {tab === 'invoices' ? (
        <section className="card p-6" aria-labelledby="invoices-heading">
          <h2 id="invoices-heading" className="text-lg font-semibold">Invoices &amp; Quotes</h2>
          <p className="mt-3 text-sm text-ink-500">No invoices yet.</p>
        </section>
      ) : null}
    </main>
  )
}
