"""The bot account pages (SPEC 14): a player's bot accounts and their tokens, and the lobby's search for
bot accounts that are online. The program's own API is apps/players/api.py and apps/tables/api.py."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.models import User
from apps.accounts.requests import SignedInRequest
from apps.bots import presence, services
from apps.bots.forms import BotAccountForm, TokenForm
from apps.bots.models import BotAccount
from apps.bots.selectors import bot_account_of, bots_owned_by, search_bot_accounts, tokens_of

#: How many online bot accounts the lobby's search offers at once.
SEARCH_RESULTS = 20


def _mine(request: HttpRequest, name: str) -> BotAccount:
    """The bot account of that name if the visitor manages it (404 otherwise: nobody learns whose it is)."""
    user = User.objects.filter(username=name).first()
    bot = bot_account_of(user.pk) if user is not None else None
    if bot is None or not (bot.owner_id == request.user.pk or request.user.is_staff):
        raise Http404(_("There is no such bot account."))
    return bot


@login_required
def my_bots(request: SignedInRequest) -> HttpResponse:
    user = request.user
    form = BotAccountForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                bot_user = services.bot_account_create(
                    by=user, username=form.cleaned_data["username"], description=form.cleaned_data["description"]
                )
            except services.BotAccountError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("%(name)s is your bot account: make it a token.") % {"name": bot_user.username})
                return redirect("bots:bot", bot_user.username)
        status = 400
    bots = list(bots_owned_by(user.pk))
    online = presence.online([bot.pk for bot in bots])
    context = {
        "form": form,
        "bots": [(bot, bot.pk in online) for bot in bots],
        "may_own": not user.is_guest and not hasattr(user, "bot_account"),
    }
    return render(request, "bots/my_bots.html", context, status=status)


def _bot_page(
    request: HttpRequest, bot: BotAccount, *, form: TokenForm | None = None, status: int = 200, secret: str = ""
) -> HttpResponse:
    """The bot's page; `secret`: a token just made, shown in this one response and kept nowhere (not in
    the session, not in a cache: only its digest is stored, by services.token_create)."""
    context = {
        "bot": bot,
        "online": bot.pk in presence.online([bot.pk]),
        "tokens": list(tokens_of(bot)),
        "form": form or TokenForm(),
        "secret": secret,
    }
    response = render(request, "bots/bot.html", context, status=status)
    if secret:
        response["Cache-Control"] = "no-store"  # the one page that shows it is kept by nobody
    return response


@login_required
def bot_page(request: HttpRequest, name: str) -> HttpResponse:
    return _bot_page(request, _mine(request, name))


@login_required
@require_POST
def token_new(request: SignedInRequest, name: str) -> HttpResponse:
    """A new token, shown in the answer to the POST that made it and never again. It is not carried to
    a later page view through the session: a session row would keep it in plain text for as long as the
    session lives (up to 14 days, until the next view of the page). Reloading this answer asks the
    browser to send the form again, which makes another token (the first stays listed, to be revoked)."""
    bot = _mine(request, name)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _bot_page(request, bot, form=form, status=400)
    try:
        _token, secret = services.token_create(bot_id=bot.pk, by=request.user, name=form.cleaned_data["name"])
    except services.BotAccountError as error:
        form.add_error(None, str(error))
        return _bot_page(request, bot, form=form, status=400)
    return _bot_page(request, bot, secret=secret)


@login_required
@require_POST
def token_revoke(request: SignedInRequest, name: str, token_id: int) -> HttpResponse:
    bot = _mine(request, name)
    if not tokens_of(bot).filter(pk=token_id).exists():
        raise Http404(_("There is no such token."))
    token = services.token_revoke(token_id=token_id, by=request.user)
    messages.success(request, _("The token “%(name)s” is revoked: its sockets are closed.") % {"name": token.name})
    return redirect("bots:bot", bot.user.username)


@require_GET
def online(request: HttpRequest) -> JsonResponse:
    """Bot accounts with a socket open whose names contain `q` (the lobby's invite search)."""
    found = search_bot_accounts(request.GET.get("q", ""))
    here = presence.online([bot.pk for bot in found])
    shown = [bot for bot in found if bot.pk in here][:SEARCH_RESULTS]
    return JsonResponse({
        "bots": [
            {"name": bot.user.username, "owner": bot.owner.username, "description": bot.description}
            for bot in shown
        ]
    })


#: The bot API's documentation and the example bot, served as they are in the repository.
API_FILES = {
    "bot-api.md": ("docs/bot-api.md", "text/plain; charset=utf-8"),
    "bot.py": ("examples/bot/bot.py", "text/x-python; charset=utf-8"),
}


def api_file(request: HttpRequest, name: str = "bot-api.md") -> FileResponse:
    found = API_FILES.get(name)
    if found is None:
        raise Http404(_("There is no such file."))
    path, content_type = found
    response = FileResponse(open(settings.BASE_DIR / path, "rb"), content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
