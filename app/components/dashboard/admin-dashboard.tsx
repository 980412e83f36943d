import { Outlet } from '@remix-run/react'
import { PrivacyControls } from '#app/components/account/privacy-controls.tsx'
import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { formatRand, plural } from '#app/lib/format/numbers.ts'

import { AirspaceTab } from './admin/airspace-tab.tsx'
import { AuditTab } from './admin/audit-tab.tsx'
import { ComplianceTab } from './admin/compliance-tab.tsx'
import { FinancialTab } from './admin/financial-tab.tsx'
import { PilotsTab } from './admin/pilots-tab.tsx'
import { ProjectsTab } from './admin/projects-tab.tsx'
import { SettingsTab } from './admin/settings-tab.tsx'
import type { AdminData } from './admin/types.ts'
import { UsersTab } from './admin/users-tab.tsx'
import { ProfileForm, type ProfileValues } from './profile-form.tsx'
import { WelcomeBanner } from './welcome-banner.tsx'

const ADMIN_TABS = [
  { id: 'projects', label: 'Projects' },
  { id: 'users', label: 'Users' },
  { id: 'pilots', label: 'Pilots' },
  { id: 'airspace', label: 'Airspace' },
  { id: 'financial', label: 'Financial' },
  { id: 'settings', label: 'Settings' },
  { id: 'audit', label: 'Audit log' },
  { id: 'compliance', label: 'Compliance' },
  { id: 'profile', label: 'Profile' },
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

/**
 * The admin console. Tabs are links (`/admin?tab=…`); dialogs are child routes of
 * /admin rendered into the <Outlet/> over the open tab.
 */
export function AdminDashboard({
  stats,
  admin,
  welcome,
  profile,
}: {
  stats: AdminStats
  admin: AdminData
  welcome: string | null
  profile: ProfileValues
}) {
  const active = ADMIN_TABS.find((t) => t.id === admin.tab) ?? ADMIN_TABS[0]
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <WelcomeBanner message={welcome} />
      <div className="no-print">
        <DashboardHeading title="Admin Dashboard" subtitle="Comprehensive project and user management" />
      </div>
      <div className="no-print grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          label="Total Projects"
          value={stats.totalProjects}
          hint={`${stats.completedProjects} completed`}
        />
        <StatCard label="Pending Projects" value={stats.pendingProjects} hint="Awaiting payment or a pilot" />
        <StatCard label="Active Projects" value={stats.activeProjects} hint="Assigned or in progress" />
        <StatCard
          label="Revenue"
          value={<span className="text-xl sm:text-2xl">{formatRand(stats.revenue)}</span>}
          hint={`${plural(stats.clients, 'client')} · ${plural(stats.pilots, 'pilot')}`}
        />
      </div>
      <TabLinks
        tabs={ADMIN_TABS}
        active={active.id}
        label="Admin dashboard sections"
        hrefFor={(id) => `/admin?tab=${id}`}
      />
      <section aria-label={active.label}>
        {admin.tab === 'projects' ? (
          <ProjectsTab data={admin} />
        ) : admin.tab === 'users' ? (
          <UsersTab data={admin} />
        ) : admin.tab === 'pilots' ? (
          <PilotsTab data={admin} />
        ) : admin.tab === 'airspace' ? (
          <AirspaceTab data={admin} />
        ) : admin.tab === 'financial' ? (
          <FinancialTab data={admin} />
        ) : admin.tab === 'settings' ? (
          <SettingsTab data={admin} />
        ) : admin.tab === 'compliance' ? (
          <ComplianceTab data={admin} />
        ) : admin.tab === 'profile' ? (
          <div className="space-y-6">
            <ProfileForm profile={profile} />
            <PrivacyControls marketingOptIn={profile.marketingOptIn ?? false} />
          </div>
        ) : (
          <AuditTab data={admin} />
        )}
      </section>
      <Outlet />
    </main>
  )
}
