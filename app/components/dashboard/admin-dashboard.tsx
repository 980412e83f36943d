import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { formatRand } from '#app/components/ui/money.ts'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks, useActiveTab } from '#app/components/ui/tabs.tsx'
import { WelcomeBanner } from './welcome-banner.tsx'

export const ADMIN_TABS = [
  { id: 'projects', label: 'Projects' },
  { id: 'users', label: 'Users' },
  { id: 'pilots', label: 'Pilots' },
  { id: 'airspace', label: 'Airspace' },
  { id: 'financial', label: 'Financial' },
  { id: 'settings', label: 'Settings' },
] as const

export interface AdminStats {
  totalProjects: number
  pendingProjects: number
  activeProjects: number
  completedProjects: number
  clients: number
  pilots: number
  revenue: number
}

export function AdminDashboard({ stats, welcome }: { stats: AdminStats; welcome: string | null }) {
  const tab = useActiveTab(ADMIN_TABS, 'projects')
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <WelcomeBanner message={welcome} />
      <DashboardHeading title="Admin Dashboard" subtitle="Comprehensive project and user management" />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Projects" value={stats.totalProjects} hint={`${stats.completedProjects} completed`} />
        <StatCard label="Pending Projects" value={stats.pendingProjects} hint="Awaiting pilot assignment" />
        <StatCard label="Active Projects" value={stats.activeProjects} hint="Assigned or in progress" />
        <StatCard label="Revenue" value={formatRand(stats.revenue)} hint={`${stats.clients} clients · ${stats.pilots} pilots`} />
      </div>
      <TabLinks tabs={ADMIN_TABS} active={tab} label="Admin dashboard sections" />
      <section className="card p-6" aria-label={ADMIN_TABS.find((t) => t.id === tab)?.label}>
        <h2 className="text-lg font-semibold">{ADMIN_TABS.find((t) => t.id === tab)?.label}</h2>
      </section>
    </main>
  )
}
