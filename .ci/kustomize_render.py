"""`kustomize build` for the features deploy/k8s/kustomization.yaml uses, offline and without
kubectl: resources, namespace, labels (metadata only, `includeSelectors: false`), images
(newName/newTag) and a secretGenerator over env files, whose generated name carries a hash of the
content and which every secretKeyRef, envFrom and secret volume follows (so a changed secret
rolls the pods, as with kustomize). A feature it does not know is an error, not ignored.
"""

import base64
import hashlib
import json
from pathlib import Path

KNOWN = {"apiVersion", "kind", "namespace", "labels", "resources", "images", "secretGenerator"}


def env_file(path):
    """`KEY=VALUE` lines (blank lines and `#` comments skipped), as kustomize reads `envs`."""
    data = {}
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key:
            raise ValueError(f"{path}:{n}: not KEY=VALUE")
        data[key] = value
    return data


def generated_name(name, secret):
    digest = hashlib.sha256(json.dumps(secret, sort_keys=True).encode()).hexdigest()
    return f"{name}-{digest[:10]}"


def pod_specs(obj):
    spec = obj.get("spec", {})
    if obj["kind"] == "Pod":
        yield spec
    elif obj["kind"] == "CronJob":
        yield spec.get("jobTemplate", {}).get("spec", {}).get("template", {}).get("spec", {})
    elif "template" in spec:
        yield spec["template"].get("spec", {})


def render(base, kustomization, load_docs, env_files=None):
    """The objects `kustomize build base` makes; `env_files` maps an `envs` entry to the file
    to read instead (CI renders with the committed example)."""
    unknown = set(kustomization) - KNOWN
    if unknown:
        raise ValueError(f"kustomization keys this renderer does not know: {sorted(unknown)}")
    objects = []
    for resource in kustomization.get("resources", []):
        objects.extend(load_docs(base / resource))
    renamed = {}
    for gen in kustomization.get("secretGenerator", []):
        data = {}
        for env in gen.get("envs", []):
            data.update(env_file((env_files or {}).get(env, base / env)))
        secret = {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": gen["name"]},
            "type": gen.get("type", "Opaque"),
            "data": {k: base64.b64encode(v.encode()).decode() for k, v in sorted(data.items())},
        }
        renamed[gen["name"]] = generated_name(gen["name"], secret)
        secret["metadata"]["name"] = renamed[gen["name"]]
        objects.append(secret)
    namespace = kustomization.get("namespace")
    for obj in objects:
        meta = obj.setdefault("metadata", {})
        if namespace and obj["kind"] != "Namespace":
            meta["namespace"] = namespace
        for entry in kustomization.get("labels", []):
            if entry.get("includeSelectors") or entry.get("includeTemplates"):
                raise ValueError("labels with includeSelectors/includeTemplates are not supported")
            meta.setdefault("labels", {}).update(entry.get("pairs", {}))
        for spec in pod_specs(obj):
            for c in spec.get("containers", []) + spec.get("initContainers", []):
                c["image"] = retagged(c.get("image", ""), kustomization.get("images", []))
                for e in c.get("env", []):
                    ref = (e.get("valueFrom") or {}).get("secretKeyRef")
                    if ref and ref.get("name") in renamed:
                        ref["name"] = renamed[ref["name"]]
                for e in c.get("envFrom", []):
                    ref = e.get("secretRef")
                    if ref and ref.get("name") in renamed:
                        ref["name"] = renamed[ref["name"]]
            for v in spec.get("volumes", []):
                if "secret" in v and v["secret"].get("secretName") in renamed:
                    v["secret"]["secretName"] = renamed[v["secret"]["secretName"]]
    return objects


def retagged(image, images):
    name, _, tag = image.partition(":")
    for rule in images:
        if rule.get("name") == name:
            name = rule.get("newName", name)
            tag = rule.get("newTag", tag)
    return f"{name}:{tag}" if tag else name
