from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from fdeplatform.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("how-it-works/", core_views.how_it_works, name="how-it-works"),
    path("", include("fdeplatform.accounts.urls")),
    path("cases/", include("fdeplatform.cases.urls")),
    path("runs/", include("fdeplatform.runs.urls")),
    path("staff/cases/", include("fdeplatform.authoring.urls")),
    path("", include("fdeplatform.leaderboards.urls")),
    path("", include("fdeplatform.progress.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("fdeplatform.api.urls")),
    path("api/", include("fdeplatform.leaderboards.api_urls")),
    path("admin/", admin.site.urls),
]
