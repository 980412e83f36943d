import { Link } from '@remix-run/react'
import { TableCard } from '#app/components/ui/section-header.tsx'
import { fullName } from '#app/domain/users/person-name.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { useOptionalUser } from '#app/root.tsx'

import type { TabData } from './types.ts'
import { ActiveToggle, CreateLink, DataTable, RoleBadge, td } from './ui.tsx'

export function UsersTab({ data }: { data: TabData<'users'> }) {
  const me = useOptionalUser()
  return (
    <TableCard
      title="Users"
      description={plural(data.users.length, 'account')}
      actions={<CreateLink to="/admin/users/new">Create User</CreateLink>}
    >
      <DataTable
        columns={['User', 'Email', 'Role', 'Status', 'Actions']}
        isEmpty={data.users.length === 0}
        empty="No users yet."
      >
        {data.users.map((u) => (
          <tr key={u.id} data-testid={`user-row-${u.email}`}>
            <td className={td}>
              <p className="font-medium text-ink-950">{fullName(u)}</p>
              {u.companyName ? <p className="text-xs text-ink-500">{u.companyName}</p> : null}
            </td>
            <td className={`${td} whitespace-nowrap`}>{u.email}</td>
            <td className={td}>
              <RoleBadge role={u.role} />
            </td>
            <td className={td}>
              {me?.id === u.id ? (
                <span className="badge bg-emerald-100 text-emerald-800">Active (you)</span>
              ) : (
                <ActiveToggle
                  intent="admin-user-active"
                  id={u.id}
                  isActive={u.isActive}
                  label={fullName(u)}
                />
              )}
            </td>
            <td className={td}>
              <Link
                to={`/admin/users/${u.id}/password`}
                preventScrollReset
                className="btn-secondary btn-sm whitespace-nowrap"
                aria-label={`Reset password for ${u.email}`}
              >
                Reset Password
              </Link>
            </td>
          </tr>
        ))}
      </DataTable>
    </TableCard>
  )
}
