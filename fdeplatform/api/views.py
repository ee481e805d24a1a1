"""REST API for agents and researchers. Views parse input, call a service, shape output."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.generics import ListAPIView

from fdeplatform.cases.models import Case
from fdeplatform.cases.selectors import published_cases


class CaseOutputSerializer(serializers.ModelSerializer[Case]):
    version = serializers.SerializerMethodField()
    limits = serializers.SerializerMethodField()

    class Meta:
        model = Case
        fields = ["slug", "title", "summary", "family", "sector", "subtype", "version", "limits"]

    def get_version(self, case: Case) -> str:
        return case.current_version.version if case.current_version else ""

    def get_limits(self, case: Case) -> dict[str, Any]:
        return dict(case.current_version.limits) if case.current_version else {}


class CaseListApi(ListAPIView[Case]):
    """Published cases with their public metadata (never hidden files or reference values)."""

    serializer_class = CaseOutputSerializer

    def get_queryset(self) -> Any:
        return published_cases()
