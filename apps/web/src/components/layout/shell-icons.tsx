import type { ComponentProps } from "react";

/**
 * The four icons of the header and the alerts, drawn as lucide draws them (lucide-react, ISC licence) but
 * without its icon runtime, which weighed about 3 KB gzip on every first page (docs/performance/history.md,
 * "Login route"); the other pages load lucide-react with their own chunks.
 */
function ShellIcon(props: ComponentProps<"svg">) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    />
  );
}

type IconProps = Omit<ComponentProps<"svg">, "children">;

export const LayoutDashboardIcon = (props: IconProps) => (
  <ShellIcon {...props}>
    <rect width="7" height="9" x="3" y="3" rx="1" />
    <rect width="7" height="5" x="14" y="3" rx="1" />
    <rect width="7" height="9" x="14" y="12" rx="1" />
    <rect width="7" height="5" x="3" y="16" rx="1" />
  </ShellIcon>
);

export const LogOutIcon = (props: IconProps) => (
  <ShellIcon {...props}>
    <path d="m16 17 5-5-5-5" />
    <path d="M21 12H9" />
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
  </ShellIcon>
);

export const UserIcon = (props: IconProps) => (
  <ShellIcon {...props}>
    <path d="M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2" />
    <circle cx="12" cy="7" r="4" />
  </ShellIcon>
);

export const XIcon = (props: IconProps) => (
  <ShellIcon {...props}>
    <path d="M18 6 6 18" />
    <path d="m6 6 12 12" />
  </ShellIcon>
);
