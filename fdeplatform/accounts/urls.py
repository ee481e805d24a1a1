from django.contrib.auth import views as auth_views
from django.urls import path

from fdeplatform.accounts import views

# Password views keep Django's URL names (password_change, password_reset_confirm, ...), which
# its views and e-mail template reverse.
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/confirm/<str:uidb64>/<str:token>/", views.signup_confirm, name="signup-confirm"),
    path("signup/resend/", views.signup_resend, name="signup-resend"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/", views.account, name="account"),
    path("account/token/", views.rotate_token, name="rotate-token"),
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password-reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<str:uidb64>/<str:token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
