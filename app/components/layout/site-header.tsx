/**
 * The navigation bar: logo to /, Home / About Us / Services to
 * their sections (from other pages: /#section), Login/Register for visitors and
 * Dashboard/Logout for signed-in users. Past 100 px of scroll it turns to glass (without
 * JavaScript too: the `nav-overlay` scroll animation in tailwind.css).
 */
import { Form, Link, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'

import { cn } from '../ui/cn.ts'
import { Logo } from './logo.tsx'

const NAV_GLASS_THRESHOLD_PX = 100

const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'about', label: 'About Us' },
  { id: 'services', label: 'Services' },
] as const

export function SiteHeader({ signedIn, overlay = false }: { signedIn: boolean; overlay?: boolean }) {
  const location = useLocation()
  const onLanding = location.pathname === '/'
  const [scrolled, setScrolled] = useState(false)
  // The mobile menu is a <details>, so it opens without JavaScript too.
  const mobileMenu = useRef<HTMLDetailsElement>(null)

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_GLASS_THRESHOLD_PX)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  // Close the mobile menu after navigating.
  useEffect(() => {
    if (mobileMenu.current) mobileMenu.current.open = false
  }, [location.pathname, location.search])

  const glass = scrolled || !overlay
  const light = overlay && !glass

  function goToSection(event: React.MouseEvent<HTMLAnchorElement>, id: string) {
    if (mobileMenu.current) mobileMenu.current.open = false
    if (!onLanding) return // a normal link to /#id
    const target = document.getElementById(id)
    if (!target) return
    event.preventDefault()
    target.scrollIntoView({ behavior: 'smooth' })
    window.history.replaceState(null, '', `#${id}`)
  }

  const navLink = cn(
    'rounded-md px-3 py-2 text-sm font-medium transition',
    light ? 'nav-ink hover:opacity-80' : 'text-ink-700 hover:text-ink-950',
  )
  const mobileLink = 'rounded-md px-3 py-2.5 text-sm font-medium text-ink-800 hover:bg-ink-50'

  function links(mobile: boolean) {
    const linkClass = mobile ? mobileLink : navLink
    return (
      <>
        {SECTIONS.map((s) => (
          <a key={s.id} href={`/#${s.id}`} onClick={(e) => goToSection(e, s.id)} className={linkClass}>
            {s.label}
          </a>
        ))}
        <span
          className={mobile ? 'my-1 h-px bg-ink-100' : 'mx-2 h-6 w-px bg-ink-200/60'}
          aria-hidden="true"
        />
        {signedIn ? (
          <>
            <Link to="/dashboard" className={linkClass}>
              Dashboard
            </Link>
            {/* A full page POST, not a fetch: the answer's Clear-Site-Data stops the pilot's
                service worker, and a client-side submit would still be loading the route's
                module through it. It also drops every signed-in view in memory. */}
            <Form method="post" action="/logout" reloadDocument>
              <button type="submit" className={cn('btn-secondary btn-sm', mobile ? 'mt-1 w-full' : 'ml-2')}>
                Logout
              </button>
            </Form>
          </>
        ) : (
          <>
            <Link to="/login" className={linkClass}>
              Login
            </Link>
            <Link to="/register" className={cn('btn-primary btn-sm', mobile ? 'mt-1' : 'ml-2')}>
              Register
            </Link>
          </>
        )}
      </>
    )
  }

  return (
    <header
      data-glass={glass ? 'true' : 'false'}
      className={cn(
        'no-print fixed inset-x-0 top-0 z-[1000] transition-all duration-300',
        glass
          ? 'border-b border-white/40 bg-white/70 shadow-sm backdrop-blur-md'
          : 'nav-overlay bg-transparent',
      )}
    >
      <nav
        aria-label="Main"
        className="relative mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6"
      >
        <Link to="/" aria-label="Kestrel Aerial Survey home" className="rounded-md">
          <Logo light={light} inkClassName={light ? 'nav-ink' : undefined} />
        </Link>
        <div className="hidden items-center gap-1 md:flex">{links(false)}</div>
        <details ref={mobileMenu} className="group md:hidden">
          <summary
            className={cn(
              'flex cursor-pointer list-none rounded-md p-2 [&::-webkit-details-marker]:hidden',
              light ? 'nav-ink' : 'text-ink-800',
            )}
          >
            <span className="sr-only">Menu</span>
            <MenuIcon path="M4 7h16M4 12h16M4 17h16" className="group-open:hidden" />
            <MenuIcon path="M6 6l12 12M18 6L6 18" className="hidden group-open:block" />
          </summary>
          <div className="absolute inset-x-0 top-16 flex flex-col gap-1 border-b border-ink-100 bg-white p-4 shadow-lg">
            {links(true)}
          </div>
        </details>
      </nav>
    </header>
  )
}

/** The phone menu's button face: three lines while closed, a cross while open. */
function MenuIcon({ path, className }: { path: string; className: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('h-6 w-6', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d={path} />
    </svg>
  )
}
