import { ORDER_STATUS_LABELS, type OrderStatus } from "@app/shared";
import { Link } from "@tanstack/react-router";
import { Button } from "@/components/ui/button";
import type { PackageView } from "@/lib/types";
import { cn } from "@/lib/utils";
import { Availability } from "./availability";
import { OverviewCard } from "./overview-card";

function StatusBadge({ status }: { status: string }) {
  const label = ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
  return (
    <span
      className={cn(
        "rounded-full px-2.5 py-0.5 text-xs font-semibold",
        status === "paid" ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800",
      )}
    >
      Status: {label}
    </span>
  );
}

function PackageActions({ pkg }: { pkg: PackageView }) {
  const params = { congressPackageId: pkg.id };
  const availability = pkg.availableFrom && <Availability from={pkg.availableFrom} />;
  if (pkg.qualified && availability) {
    return availability;
  }
  if (pkg.openable) {
    return (
      <Button asChild>
        <Link to="/congress-package/$congressPackageId" params={params}>
          Kongresspaket öffnen
        </Link>
      </Button>
    );
  }
  if (pkg.bought) {
    return (
      <div className="flex flex-col gap-1">
        <p className="text-sm font-medium text-red-800">Die Bestellung wurde storniert.</p>
        {availability}
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <Button asChild variant="secondary">
        <Link to="/congress-package-purchase/$congressPackageId" params={params}>
          Jetzt kaufen
        </Link>
      </Button>
      {availability}
    </div>
  );
}

export function PackageCard({ pkg }: { pkg: PackageView }) {
  return (
    <OverviewCard
      headingId={`package-${pkg.id}`}
      title={pkg.name}
      picture={pkg.picture}
      pictureClassName="h-24 w-full"
      description={pkg.description}
      meta={<p className="text-sm text-slate-600">{pkg.congress.title}</p>}
      badges={
        pkg.orderStatus && (
          <p className="mt-2">
            <StatusBadge status={pkg.orderStatus} />
          </p>
        )
      }
      actions={<PackageActions pkg={pkg} />}
    />
  );
}
