#!/usr/bin/env bash
# Builds the file spanner-client-bench takes as a candidate build (POST /api/artifacts) from a checkout
# of a client's repository, with the client's own build tools. Nothing here talks to the bench server.
#   build-candidate.sh node <checkout of the Node client, built>   <out.tgz>
#   build-candidate.sh java <checkout of java-spanner>             <out.tar.gz>
#   build-candidate.sh go   <google-cloud-go's spanner/ folder>    <out.tar.gz>
#   build-candidate.sh python <checkout of python-spanner>         <out.whl>
set -euo pipefail
language=${1:?language: node, java, go or python}
checkout=$(cd "${2:?the client checkout}" && pwd)
out=${3:?the file to write}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

# The same files give the same bytes, so the same build is the same artifact id (and a runner's cached install).
reproducible_tar() {
  local file=$1 dir=$2
  shift 2
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner "$@" -cf - -C "$dir" . | gzip -n >"$file"
}

case "$language" in
  node)
    # npm pack writes the tarball npm publishes; --ignore-scripts: the checkout is built already
    # (npm run compile), and no lifecycle script runs here.
    tmp=$(mktemp -d)
    (cd "$checkout" && npm pack --ignore-scripts --silent --pack-destination "$tmp" >/dev/null)
    mv "$tmp"/*.tgz "$out"
    rmdir "$tmp"
    ;;
  java)
    # Every module of the build (google-cloud-spanner, its proto-/grpc- modules, the admin ones, the
    # parent poms) deployed to a file repository: the fragment the bench resolves beside Maven Central.
    repo=$(mktemp -d)
    (cd "$checkout" && mvn -B -q -DskipTests -Dclirr.skip -Denforcer.skip -Dcheckstyle.skip -Dmaven.javadoc.skip \
      deploy -DaltDeploymentRepository="candidate::default::file://$repo")
    reproducible_tar "$out" "$repo"
    rm -rf "$repo"
    ;;
  go)
    # The module's folder with its go.mod: the bench builds its driver against it through a replace.
    [ -f "$checkout/go.mod" ] || { echo "build-candidate.sh: $checkout has no go.mod (give the spanner/ folder)" >&2; exit 2; }
    reproducible_tar "$out" "$checkout" --exclude=.git
    ;;
  python)
    # The wheel python -m build writes (the build backend runs here, on the checkout; the bench's pip
    # only unpacks the wheel). SOURCE_DATE_EPOCH: the same sources give the same bytes.
    tmp=$(mktemp -d)
    (cd "$checkout" && SOURCE_DATE_EPOCH=315532800 python3 -m build --wheel --outdir "$tmp" >/dev/null)
    mv "$tmp"/*.whl "$out"
    rmdir "$tmp"
    ;;
  *)
    echo "build-candidate.sh: language must be node, java, go or python, not $language" >&2
    exit 2
    ;;
esac
echo "$out"
