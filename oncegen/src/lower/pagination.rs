//! Lowering `x-pagination`: the paging model, the response fields a page is read from and the
//! query parameter that asks for the next page, each checked for the type it must have.

use super::Lowerer;
use crate::error::{Error, Result};
use crate::ir::{
    Field, FieldAccess, PageModel, Pagination, Param, ParamLocation, Success, TypeKind, TypeRef,
};
use crate::read::Node;

/// The object response a page is read from, and the `x-pagination` node that names its fields.
struct PageResponse<'n, 'a> {
    node: &'n Node<'a>,
    name: &'n str,
    fields: &'n [Field],
}

impl PageResponse<'_, '_> {
    /// The field `x-pagination` names under `key` (`default` when it names none).
    fn field(&self, key: &str, default: &str) -> Result<&Field> {
        let wire = self.node.str(key).unwrap_or(default);
        self.fields.iter().find(|f| f.name == wire).ok_or_else(|| {
            self.node.error(format!(
                "`x-pagination`: response `{}` has no field `{wire}`",
                self.name
            ))
        })
    }

    /// The error for a response field that is not of the type `wanted`.
    fn wrong_type(&self, field: &Field, wanted: &str) -> Error {
        self.node.error(format!(
            "`x-pagination`: response field `{}` of `{}` must be {wanted}",
            field.name, self.name
        ))
    }
}

impl<'a> Lowerer<'a> {
    /// The operation's pagination from its `x-pagination` node, its success type and its
    /// parameters.
    pub(super) fn pagination<'p>(
        &self,
        node: &Node<'a>,
        success: &Success,
        params: impl Iterator<Item = &'p Param>,
    ) -> Result<Pagination> {
        let model = page_model(node)?;
        let response = self.page_response(node, success)?;
        let items = response.field("items", "items")?;
        let TypeRef::Array(item_ty) = &items.ty else {
            return Err(node.error(format!(
                "`x-pagination`: field `{}` is not an array",
                items.name
            )));
        };
        let (param_key, next_key) = continuation_keys(model);
        let param = continuation_param(node, params, node.str(param_key).unwrap_or(param_key))?;
        let next = response.field(next_key, next_key)?;
        let page = match model {
            PageModel::Page => Some(response.field("page_field", "page")?),
            _ => None,
        };
        check_param_type(node, model, param)?;
        check_response_types(&response, model, next, page)?;
        Ok(Pagination {
            model,
            items: access(items),
            item_ty: (**item_ty).clone(),
            request_param: param.rust_name.clone(),
            request_param_ty: param.ty.clone(),
            next: access(next),
            page: page.map(access),
        })
    }

    /// The success response pages are read from: it must be a named object.
    fn page_response<'n>(
        &'n self,
        node: &'n Node<'a>,
        success: &'n Success,
    ) -> Result<PageResponse<'n, 'a>> {
        let Success::Json(TypeRef::Named(name)) = success else {
            return Err(node.error("`x-pagination` needs a named object success response"));
        };
        match self.defs.iter().find(|d| &d.name == name).map(|d| &d.kind) {
            Some(TypeKind::Struct { fields, .. }) => Ok(PageResponse { node, name, fields }),
            _ => Err(node.error(format!(
                "`x-pagination`: response `{name}` is not an object"
            ))),
        }
    }
}

/// The paging model `x-pagination` names.
fn page_model(node: &Node<'_>) -> Result<PageModel> {
    match node.str("model") {
        Some("page") => Ok(PageModel::Page),
        Some("cursor") => Ok(PageModel::Cursor),
        Some("offset") => Ok(PageModel::Offset),
        other => Err(node.error(format!(
            "unknown `x-pagination` model `{}`",
            other.unwrap_or("?")
        ))),
    }
}

/// The `x-pagination` keys (and their defaults) naming the request parameter and the response
/// field that carries the continuation.
fn continuation_keys(model: PageModel) -> (&'static str, &'static str) {
    match model {
        PageModel::Page => ("page", "pages"),
        PageModel::Cursor => ("cursor", "next_cursor"),
        PageModel::Offset => ("offset", "next_offset"),
    }
}

/// The parameter that asks for the next page: an optional query parameter.
fn continuation_param<'p>(
    node: &Node<'_>,
    mut params: impl Iterator<Item = &'p Param>,
    wire: &str,
) -> Result<&'p Param> {
    let Some(param) = params.find(|p| p.name == wire) else {
        return Err(node.error(format!(
            "`x-pagination`: the operation has no parameter `{wire}`"
        )));
    };
    if param.required {
        return Err(node.error(format!(
            "`x-pagination`: parameter `{wire}` must be optional"
        )));
    }
    if param.location != ParamLocation::Query {
        return Err(node.error(format!(
            "`x-pagination`: parameter `{wire}` is a {} parameter; the continuation must be a query parameter",
            param.location.as_str()
        )));
    }
    Ok(param)
}

/// The continuation parameter's type: an integer for pages and offsets; for a cursor, text or a
/// number or uuid the builder parses the cursor into.
fn check_param_type(node: &Node<'_>, model: PageModel, param: &Param) -> Result<()> {
    let (fits, wanted) = match model {
        PageModel::Page | PageModel::Offset => (is_int(&param.ty), "an integer"),
        PageModel::Cursor => (
            matches!(
                param.ty,
                TypeRef::String
                    | TypeRef::Int(_)
                    | TypeRef::Float
                    | TypeRef::Uuid
                    | TypeRef::Decimal
            ),
            "a string, a number or a uuid",
        ),
    };
    if fits {
        return Ok(());
    }
    Err(node.error(format!(
        "`x-pagination`: parameter `{}` must be {wanted}",
        param.name
    )))
}

/// The response's continuation field: an integer for pages and offsets, a string for a cursor;
/// the page number field (pages only): an integer.
fn check_response_types(
    response: &PageResponse<'_, '_>,
    model: PageModel,
    next: &Field,
    page: Option<&Field>,
) -> Result<()> {
    let (next_fits, wanted) = match model {
        PageModel::Page | PageModel::Offset => (is_int(&next.ty), "an integer"),
        PageModel::Cursor => (next.ty == TypeRef::String, "a string"),
    };
    if !next_fits {
        return Err(response.wrong_type(next, wanted));
    }
    match page {
        Some(page) if !is_int(&page.ty) => Err(response.wrong_type(page, "an integer")),
        _ => Ok(()),
    }
}

fn is_int(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::Int(_))
}

/// How generated code reads a response field: through an `Option` when it may be absent or null.
fn access(f: &Field) -> FieldAccess {
    FieldAccess {
        rust_name: f.rust_name.clone(),
        optional: !f.required || f.nullable,
        nullable: !f.required && f.nullable,
        ty: f.ty.clone(),
    }
}
